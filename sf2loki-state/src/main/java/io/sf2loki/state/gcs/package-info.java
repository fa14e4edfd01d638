/**
 * The {@code gcs} checkpoint store: one JSON object in Google Cloud Storage, written with {@code
 * ifGenerationMatch} preconditions ({@code 0} to create).
 */
package io.sf2loki.state.gcs;
