/**
 * Decoding Pub/Sub events: writer schemas by id (a bounded, single-flight cache over GetSchema),
 * schemaless Avro binary to plain maps, and the bitmaps of change events to field names.
 */
package io.sf2loki.source.pubsub.decode;
