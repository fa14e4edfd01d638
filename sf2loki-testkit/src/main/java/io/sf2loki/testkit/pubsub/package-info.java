/**
 * A fake Salesforce Pub/Sub API: a real grpc-java Netty server on loopback speaking {@code
 * eventbus.v1.PubSub} (Subscribe, ManagedSubscribe, GetSchema, GetTopic) with Salesforce-shaped
 * Avro topics, credit accounting capped at 100, keepalives carrying {@code latest_replay_id},
 * replay from stored positions with a retention window, and the real error statuses and {@code
 * error-code} trailers. Managed subscriptions ({@link
 * io.sf2loki.testkit.pubsub.ManagedSubscriptions}) keep a committed position per subscription,
 * answer commits in-band and admit one active stream each. Faults ({@link
 * io.sf2loki.testkit.pubsub.PubSubFault}) are named and deterministic.
 */
package io.sf2loki.testkit.pubsub;
