package io.sf2loki.connect;

import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.orgs.Shards;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The source connector's configuration: Connect's own keys through {@link ConfigDef}, and the
 * sf2loki configuration (the daemon's HOCON, inline or as a file on the worker) bound by sf2loki's
 * own binding, so that a connector is refused with exactly the messages of {@code sf2loki config
 * check}.
 */
final class ConnectorSettings extends AbstractConfig {

  static final String TOPIC = "topic";
  static final String CONFIG = "sf2loki.config";
  static final String CONFIG_FILE = "sf2loki.config.file";
  static final String POLL_MAX_RECORDS = "sf2loki.poll.max.records";
  static final String RECORD_FORMAT = "sf2loki.record.format";

  /** Connect's key of the connector's value converter, which {@code json} records need. */
  static final String VALUE_CONVERTER = "value.converter";

  /** The converter that writes {@code json} records' bytes unchanged. */
  static final String BYTES_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

  /** The orgs one task runs, comma-separated; set by {@code taskConfigs}, never by the operator. */
  static final String TASK_ORGS = "sf2loki.task.orgs";

  /**
   * A {@link io.sf2loki.config.orgs.Shard} of a single-org configuration has no name; its source
   * partitions carry this one.
   */
  static final String SINGLE_ORG = "default";

  /** The Loki egress controls. */
  private static final String EGRESS = "sink.loki.egress";

  /** The sink connector's Admin client keys' prefix ({@code sf2loki.egress.admin.<key>}). */
  static final String EGRESS_ADMIN = "sf2loki.egress.admin.";

  /** How many tasks the sink connector created; set by {@code taskConfigs}. */
  static final String TASK_COUNT = "sf2loki.task.count";

  /** The sink connector's consumer group; set by {@code taskConfigs}. */
  static final String TASK_GROUP = "sf2loki.task.group";

  /** Connect's key of a sink connector's own consumer group. */
  static final String GROUP_OVERRIDE = "consumer.override.group.id";

  /** Connect's key of the connector's name. */
  static final String NAME = "name";

  /** Put before the operator's text, which may override it. */
  private static final String SINK_PLACEHOLDER =
      "sink.loki.url = \"http://kafka-connect-delivers.invalid\"\n";

  /**
   * Put before the sink connector's text, which may override it: the sink reads no org, so it needs
   * no org credentials; a {@code salesforce} section the operator gives is still checked.
   */
  private static final String ORG_PLACEHOLDER =
      "salesforce { auth_mode = client_credentials, login_url ="
          + " \"https://the-loki-sink-reads-no-org.invalid\", client_id = unused, client_secret ="
          + " unused }\n";

  /** The sink connector's keys: the sf2loki configuration, whose {@code sink.loki} it uses. */
  static final ConfigDef SINK_DEFINITION = sf2lokiConfig(new ConfigDef());

  /** The source connector's keys. */
  static final ConfigDef DEFINITION =
      sf2lokiConfig(new ConfigDef())
          .define(
              TOPIC,
              ConfigDef.Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyString(),
              ConfigDef.Importance.HIGH,
              "The Kafka topic every entry is written to.")
          .define(
              POLL_MAX_RECORDS,
              ConfigDef.Type.INT,
              500,
              ConfigDef.Range.between(1, 100_000),
              ConfigDef.Importance.LOW,
              "Most records one poll hands to Connect; the sources block while twice this many"
                  + " wait.")
          .define(
              RECORD_FORMAT,
              ConfigDef.Type.STRING,
              RecordFormat.STRUCT.key(),
              ConfigDef.ValidString.in(RecordFormat.STRUCT.key(), RecordFormat.JSON.key()),
              ConfigDef.Importance.LOW,
              "The record value: 'struct', the io.sf2loki.LogEntry struct the worker's value"
                  + " converter writes, or 'json', that entry already as JSON bytes (what"
                  + " JsonConverter with schemas.enable=false writes for the struct), written on the"
                  + " sources' threads; 'json' leaves the task thread less work per record and"
                  + " is refused unless the connector sets"
                  + " value.converter=org.apache.kafka.connect.converters.ByteArrayConverter.");

  private static ConfigDef sf2lokiConfig(ConfigDef definition) {
    return definition
        .define(
            CONFIG,
            ConfigDef.Type.STRING,
            "",
            ConfigDef.Importance.HIGH,
            "The sf2loki configuration (HOCON, as the daemon's config file): salesforce, sources"
                + " and orgs. ${NAME} reads the worker's environment variable NAME. Set this or "
                + CONFIG_FILE
                + ".")
        .define(
            CONFIG_FILE,
            ConfigDef.Type.STRING,
            "",
            ConfigDef.Importance.HIGH,
            "Path of the sf2loki configuration file on every worker; instead of " + CONFIG + ".");
  }

  private final boolean delivers;

  /** The source connector's settings: Connect delivers, so {@code sink.loki.url} is optional. */
  ConnectorSettings(Map<String, String> properties) {
    super(DEFINITION, properties);
    this.delivers = false;
  }

  private ConnectorSettings(ConfigDef definition, Map<String, String> properties) {
    super(definition, properties);
    this.delivers = true;
  }

  /** The sink connector's settings: it delivers to {@code sink.loki}, so its URL is required. */
  static ConnectorSettings ofSink(Map<String, String> properties) {
    return new ConnectorSettings(SINK_DEFINITION, properties);
  }

  String topic() {
    return getString(TOPIC);
  }

  int pollMaxRecords() {
    return getInt(POLL_MAX_RECORDS);
  }

  RecordFormat recordFormat() {
    return RecordFormat.of(getString(RECORD_FORMAT));
  }

  /**
   * Why the connector's value converter cannot write the records, if it cannot: {@code json}
   * records are bytes that any converter but {@code ByteArrayConverter} would wrap ({@code
   * JsonConverter} writes them as a base64 string), so the connector must set it rather than rely
   * on the worker's default, which it cannot see.
   */
  Optional<String> recordFormatProblem() {
    if (recordFormat() != RecordFormat.JSON) {
      return Optional.empty();
    }
    String converter = originalsStrings().get(VALUE_CONVERTER);
    if (BYTES_CONVERTER.equals(converter == null ? null : converter.trim())) {
      return Optional.empty();
    }
    return Optional.of(
        RECORD_FORMAT
            + "=json writes each value as JSON bytes: set "
            + VALUE_CONVERTER
            + "="
            + BYTES_CONVERTER
            + " on the connector (it is "
            + (converter == null ? "unset, so the worker's default" : converter)
            + "); another converter would not write the bytes as they are");
  }

  /** The key a problem of the sf2loki configuration is reported on. */
  String configKey() {
    return getString(CONFIG).isBlank() && !getString(CONFIG_FILE).isBlank() ? CONFIG_FILE : CONFIG;
  }

  /**
   * Binds the sf2loki configuration as the daemon does: every org of {@code orgs} a shard, a
   * single-org configuration one.
   *
   * @param environment the worker's environment ({@code ${NAME}} and {@code SF2LOKI_} overrides)
   * @throws ConfigInvalidException with every problem, as {@code config check} words them
   */
  Shards bind(ClassLoader classLoader, Map<String, String> environment) {
    String inline = getString(CONFIG);
    String file = getString(CONFIG_FILE);
    if (inline.isBlank() == file.isBlank()) {
      throw ConfigInvalidException.of(
          "", "set exactly one of " + CONFIG + " and " + CONFIG_FILE + " (the sf2loki config)");
    }
    String text;
    if (inline.isBlank()) {
      try {
        text = Files.readString(Path.of(file));
      } catch (IOException e) {
        throw ConfigInvalidException.of(
            "", "config file " + file + " cannot be read: " + e.getMessage());
      }
    } else {
      text = inline;
    }
    // for the source connector Connect delivers the entries: the sink section only labels them
    LoadedConfig loaded =
        new ConfigLoader(classLoader, environment)
            .loadString((delivers ? ORG_PLACEHOLDER : SINK_PLACEHOLDER) + text);
    Shards shards = Shards.bind(loaded, classLoader);
    if (delivers) {
      if (shards.multiOrg()) {
        // a shard's sink is its org's (its tenant_id): one of them would take every org's entries
        throw ConfigInvalidException.of(
            "orgs",
            "orgs is not used by the Loki sink connector, which pushes every entry of its topics"
                + " with the top-level sink.loki (tenant_id included): remove orgs, and run one"
                + " sink connector per Loki tenant");
      }
      requireEgressAdmin(shards.first().config().egress());
    }
    return shards;
  }

  /**
   * The daily byte budget is the connector's, across its tasks, which read its use from the
   * consumer group's committed offsets with an Admin client: Connect does not hand a task the
   * worker's client configuration, so the connector names the cluster.
   */
  private void requireEgressAdmin(EgressConfig egress) {
    String bootstrap = originalsStrings().getOrDefault(EGRESS_ADMIN + "bootstrap.servers", "");
    if (egress.hasBudget() && bootstrap.isBlank()) {
      throw ConfigInvalidException.of(
          EGRESS + ".daily_byte_budget",
          EGRESS
              + ".daily_byte_budget is the sink connector's across its tasks, which keep the day's"
              + " use in the consumer group's committed offsets and read it back with a Kafka Admin"
              + " client: set "
              + EGRESS_ADMIN
              + "bootstrap.servers on the connector (and any security keys the worker's clients"
              + " use, as "
              + EGRESS_ADMIN
              + "<admin client key>)");
    }
  }

  /** The Admin client's configuration: the {@code sf2loki.egress.admin.} keys, prefix removed. */
  Map<String, Object> egressAdmin() {
    return originalsWithPrefix(EGRESS_ADMIN);
  }

  /**
   * The sink connector's consumer group: {@code consumer.override.group.id} when the connector sets
   * it, else Connect's {@code connect-<connector name>}.
   */
  String sinkGroup() {
    Map<String, String> originals = originalsStrings();
    String override = originals.getOrDefault(GROUP_OVERRIDE, "");
    if (!override.isBlank()) {
      return override.trim();
    }
    String given = originals.getOrDefault(TASK_GROUP, "");
    return given.isBlank() ? "connect-" + originals.getOrDefault(NAME, "") : given;
  }

  /** How many tasks {@code taskConfigs} created, which share the rate caps; 1 if not set. */
  int taskCount() {
    String count = originalsStrings().getOrDefault(TASK_COUNT, "1");
    try {
      return Math.max(1, Integer.parseInt(count.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(TASK_COUNT + " is not a number: " + count, e);
    }
  }

  /** The org names of {@code shards}, in the configuration's order. */
  static List<String> orgNames(Shards shards) {
    return shards.multiOrg() ? shards.orgNames() : List.of(SINGLE_ORG);
  }

  /** The orgs {@code taskConfigs} gave this task. */
  List<String> taskOrgs() {
    String orgs = originalsStrings().getOrDefault(TASK_ORGS, "");
    List<String> out = new ArrayList<>();
    for (String org : orgs.split(",")) {
      if (!org.isBlank()) {
        out.add(org.trim());
      }
    }
    return out;
  }
}
