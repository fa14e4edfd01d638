/**
 * The {@code pubsub} source: Salesforce's Pub/Sub API (Real-Time Event Monitoring streams, platform
 * events, Change Data Capture) in real time, one Subscribe stream per topic on the streaming lane.
 * Subpackages: {@code client} (gRPC, credits, error classes), {@code decode} (schemas, Avro, CDC
 * bitmaps), {@code replay} (stored positions and where a stream starts).
 */
package io.sf2loki.source.pubsub;
