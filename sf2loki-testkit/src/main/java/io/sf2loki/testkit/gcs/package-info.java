/**
 * A fake of the Google Cloud Storage JSON API on the JDK's HTTP server: linearizable generation
 * preconditions, the real error bodies, request recording and fault injection.
 */
package io.sf2loki.testkit.gcs;
