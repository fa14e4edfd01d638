/**
 * A Loki push receiver for tests and the demo simulator: decodes protobuf+snappy and JSON(+gzip)
 * independently of sf2loki's encoder, enforces Loki's ingestion rules (answering rejections with
 * Loki's own texts), records what it received and injects scripted faults.
 */
package io.sf2loki.testkit.loki;
