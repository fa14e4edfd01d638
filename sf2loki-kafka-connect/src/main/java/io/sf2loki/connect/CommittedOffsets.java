package io.sf2loki.connect;

import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets the sink connector's consumer group committed, with their metadata, where the sink
 * tasks keep each partition's day's egress use ({@link GroupUsage}).
 */
interface CommittedOffsets extends AutoCloseable {

  /** Why the group's offsets could not be read (the broker unreachable, an authorization). */
  final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Every partition's committed offset; a partition without one is absent or maps to null.
   *
   * @throws Unreadable when the group's offsets cannot be read now
   */
  Map<TopicPartition, OffsetAndMetadata> read() throws Unreadable, InterruptedException;

  @Override
  void close();
}
