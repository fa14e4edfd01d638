package io.sf2loki.connect;

import io.sf2loki.model.LogEntry;
import org.apache.kafka.common.TopicPartition;

/**
 * An entry the sink task has not pushed yet, and the record it came from.
 *
 * @param offset the record's Kafka offset
 */
record PendingEntry(TopicPartition partition, long offset, LogEntry entry) {}
