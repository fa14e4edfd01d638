package io.sf2loki.connect;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.loki.DecodedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.RecordedPush;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the sink crash test feeds the sink connector and reads back: a topic of entries whose line
 * names the Kafka partition and offset it was written at ({@code p<partition>-<offset>}), the
 * consumer offsets the sink's group committed, and how often the fake Loki received each line
 * before its de-duplication.
 */
final class SinkDeliveries {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SinkDeliveries() {}

  /**
   * Creates {@code topic} with {@code partitions} partitions and writes {@code perPartition}
   * entries to each, key and value in the JSON the source connector's converter writes. A fresh
   * topic written without transactions numbers its records from 0, so the line's offset is the
   * record's.
   */
  static void fill(String bootstrap, String topic, int partitions, int perPartition)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    Instant start = Instant.now().minus(10, ChronoUnit.MINUTES);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (int p = 0; p < partitions; p++) {
        Map<String, String> labels = Map.of("job", "crash", "partition", "p" + p);
        for (int offset = 0; offset < perPartition; offset++) {
          Map<String, Object> value = new HashMap<>();
          value.put("timestamp_ns", start.plusMillis(offset).toEpochMilli() * 1_000_000L);
          value.put("labels", labels);
          value.put("structured_metadata", Map.of());
          value.put("line", "p" + p + "-" + offset);
          // the key as the source's JsonConverter writes a string: quoted
          String key = JSON.writeValueAsString("{job=\"crash\",partition=\"p" + p + "\"}");
          producer.send(new ProducerRecord<>(topic, p, key, JSON.writeValueAsString(value)));
        }
      }
      producer.flush();
    }
  }

  /** The offsets the sink connector's consumer group ({@code connect-<name>}) committed. */
  static Map<TopicPartition, Long> committed(String bootstrap, String connector) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin
              .listConsumerGroupOffsets("connect-" + connector)
              .partitionsToOffsetAndMetadata()
              .get();
      Map<TopicPartition, Long> out = new HashMap<>();
      offsets.forEach((partition, offset) -> out.put(partition, offset.offset()));
      return out;
    }
  }

  /** The metadata of the offsets consumer group {@code group} committed. */
  static Map<TopicPartition, String> committedMetadata(String bootstrap, String group)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, String> out = new HashMap<>();
      admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .forEach((partition, offset) -> out.put(partition, offset.metadata()));
      return out;
    }
  }

  /** How many times each line arrived in a push Loki accepted, duplicates included. */
  static Map<String, Integer> received(FakeLoki loki) {
    Map<String, Integer> out = new HashMap<>();
    for (RecordedPush push : loki.pushes()) {
      if (push.status().orElse(0) / 100 != 2) {
        continue; // refused: nothing of it was stored
      }
      for (DecodedStream stream : push.streams()) {
        for (DecodedEntry entry : stream.entries()) {
          out.merge(entry.line(), 1, Integer::sum);
        }
      }
    }
    return out;
  }

  /** The Kafka partition a line was written to. */
  static int partition(String line) {
    return Integer.parseInt(line.substring(1, line.indexOf('-')));
  }

  /** The Kafka offset a line was written at. */
  static long offset(String line) {
    return Long.parseLong(line.substring(line.indexOf('-') + 1));
  }
}
