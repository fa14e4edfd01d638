/**
 * {@code just bench-pubsub}: the Pub/Sub source's freshness (publish in the fake Pub/Sub to
 * accepted by the fake Loki) while an EventLogFile drain fills the bulk lane, and the events/s
 * ceiling of one subscription, each against a floor measured in the same run (docs/performance.md).
 * Not tests: nothing here runs in {@code mvn verify}.
 */
package io.sf2loki.daemon.bench;
