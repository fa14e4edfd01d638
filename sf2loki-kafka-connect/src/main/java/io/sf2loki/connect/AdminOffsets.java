package io.sf2loki.connect;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the consumer group's committed offsets with a Kafka {@link Admin} client configured from
 * the connector's {@code sf2loki.egress.admin.*} keys: Connect does not hand a task the worker's
 * client configuration.
 */
final class AdminOffsets implements CommittedOffsets {

  /** Bounds one read: the task reads inside put/preCommit, which must not stall the consumer. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Admin admin;
  private final String group;

  AdminOffsets(Map<String, Object> adminConfig, String group) {
    this.admin = Admin.create(adminConfig);
    this.group = group;
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> read()
      throws CommittedOffsets.Unreadable, InterruptedException {
    try {
      return admin
          .listConsumerGroupOffsets(
              group, new ListConsumerGroupOffsetsOptions().timeoutMs((int) TIMEOUT.toMillis()))
          .partitionsToOffsetAndMetadata()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new CommittedOffsets.Unreadable(
          "cannot read consumer group " + group + "'s offsets: " + cause, cause);
    } catch (TimeoutException e) {
      throw new CommittedOffsets.Unreadable(
          "cannot read consumer group " + group + "'s offsets within " + TIMEOUT, e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
