/**
 * The {@code s3} checkpoint store: one JSON object in S3 or an S3-compatible service, replaced with
 * {@code If-Match} / created with {@code If-None-Match: *}.
 */
package io.sf2loki.state.s3;
