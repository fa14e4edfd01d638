/**
 * Kafka Connect connectors: {@link io.sf2loki.connect.Sf2LokiSourceConnector} runs sf2loki's
 * Salesforce sources inside Connect workers. Connect keeps the positions (source offsets) and
 * delivers the entries (the producer); the sources and their composition are the daemon's.
 */
package io.sf2loki.connect;
