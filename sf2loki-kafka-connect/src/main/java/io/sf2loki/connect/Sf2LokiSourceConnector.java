package io.sf2loki.connect;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.orgs.Shards;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceTask;

/**
 * sf2loki's Salesforce sources as a Kafka Connect source connector. The sf2loki configuration is
 * the daemon's ({@code salesforce}, {@code sources}, {@code orgs}); Connect replaces the store
 * (source offsets), the coordinator (its group membership and fencing) and the sink (the topic).
 * Each org runs whole in one task.
 */
public final class Sf2LokiSourceConnector extends SourceConnector {

  /** The {@code transaction.boundary} under which this connector is exactly-once. */
  static final String CONNECTOR_BOUNDARY = "connector";

  /** Connect's key of a connector's exactly-once requirement (KIP-618). */
  static final String EXACTLY_ONCE_SUPPORT = "exactly.once.support";

  /** The source type of a stream resumed by replay id, which is not exactly-once under Connect. */
  static final String PUBSUB = "pubsub";

  private Map<String, String> properties = Map.of();
  private List<String> orgs = List.of();

  @Override
  public String version() {
    return BuildInfo.version();
  }

  @Override
  public ConfigDef config() {
    return ConnectorSettings.DEFINITION;
  }

  /**
   * Connect's checks of its own keys, then sf2loki's binding of the configuration: each problem is
   * an error of {@code sf2loki.config} (or {@code sf2loki.config.file}) worded as {@code config
   * check} words it.
   */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config checked = super.validate(connectorConfigs);
    boolean ownKeysValid =
        checked.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
    if (!ownKeysValid) {
      return checked;
    }
    ConnectorSettings settings = new ConnectorSettings(connectorConfigs);
    List<String> problems = problems(connectorConfigs);
    if (problems.isEmpty()) {
      problems.addAll(exactlyOnceProblems(connectorConfigs));
    }
    Optional<String> formatProblem = settings.recordFormatProblem();
    for (ConfigValue value : checked.configValues()) {
      if (value.name().equals(settings.configKey())) {
        problems.forEach(value::addErrorMessage);
      }
      if (value.name().equals(ConnectorSettings.RECORD_FORMAT)) {
        formatProblem.ifPresent(value::addErrorMessage);
      }
    }
    return checked;
  }

  /**
   * The problems of the sf2loki configuration in {@code properties}, as config check lists them.
   */
  static List<String> problems(Map<String, String> properties) {
    try {
      new ConnectorSettings(properties)
          .bind(Sf2LokiSourceConnector.class.getClassLoader(), ConnectEnvironment.variables());
      return new ArrayList<>();
    } catch (ConfigInvalidException e) {
      return new ArrayList<>(e.problems().stream().map(ConfigProblem::toString).toList());
    }
  }

  /**
   * Refuses {@code exactly.once.support=required} with a Pub/Sub source by name, instead of
   * Connect's bare "does not support exactly-once semantics" (which only exactly-once workers
   * print).
   */
  private static List<String> exactlyOnceProblems(Map<String, String> properties) {
    if (!"required".equalsIgnoreCase(properties.getOrDefault(EXACTLY_ONCE_SUPPORT, ""))) {
      return List.of();
    }
    List<String> streaming = streamingOrgs(properties);
    if (streaming.isEmpty()) {
      return List.of();
    }
    return List.of(
        EXACTLY_ONCE_SUPPORT
            + "=required cannot hold with sources.pubsub enabled (org "
            + String.join(", ", streaming)
            + "): a Pub/Sub stream is resumed by replay id, and an expired replay id (resumed from"
            + " EARLIEST), a managed subscription (resumed where Salesforce committed) or a topic"
            + " without a position (resumed from LATEST) re-reads or skips events; run Pub/Sub in"
            + " a connector of its own without exactly.once.support=required");
  }

  /** The orgs of {@code properties} whose configuration enables Pub/Sub; empty when unbound. */
  private static List<String> streamingOrgs(Map<String, String> properties) {
    Shards shards;
    try {
      shards =
          new ConnectorSettings(properties)
              .bind(Sf2LokiSourceConnector.class.getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException | ConfigException e) {
      return List.of(); // validate reports the configuration's own problems
    }
    List<String> names = ConnectorSettings.orgNames(shards);
    List<String> streaming = new ArrayList<>();
    for (int i = 0; i < shards.all().size(); i++) {
      if (shards.all().get(i).config().sources().containsKey(PUBSUB)) {
        streaming.add(names.get(i));
      }
    }
    return streaming;
  }

  @Override
  public void start(Map<String, String> props) {
    ConnectorSettings settings = new ConnectorSettings(props);
    settings
        .recordFormatProblem()
        .ifPresent(
            problem -> {
              throw new ConnectException(problem);
            });
    Shards shards;
    try {
      shards = settings.bind(getClass().getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    this.properties = Map.copyOf(props);
    this.orgs = ConnectorSettings.orgNames(shards);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return Sf2LokiSourceTask.class;
  }

  /** One task per group of orgs ({@link OrgAssignment}): an org's keys never span two tasks. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>();
    for (List<String> group : OrgAssignment.spread(orgs, maxTasks)) {
      Map<String, String> config = new HashMap<>(properties);
      config.put(ConnectorSettings.TASK_ORGS, String.join(",", group));
      configs.add(config);
    }
    return configs;
  }

  /**
   * Exactly-once delivery into Kafka (KIP-618) when the task defines the transactions ({@code
   * transaction.boundary=connector}): each transaction then ends at a record that carries a resume
   * position, so an aborted one is read again whole and a committed one is never read again.
   * Connect's {@code poll} and {@code interval} boundaries can end a transaction in the middle of a
   * LogFile, between two positions, so they are not exactly-once. Only the polling sources are: a
   * configuration with Pub/Sub is not, whatever the boundary ({@link #exactlyOnceProblems}).
   */
  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    boolean ownBoundaries =
        CONNECTOR_BOUNDARY.equalsIgnoreCase(
            connectorConfig.getOrDefault(SourceTask.TRANSACTION_BOUNDARY_CONFIG, "poll"));
    return ownBoundaries && streamingOrgs(connectorConfig).isEmpty()
        ? ExactlyOnceSupport.SUPPORTED
        : ExactlyOnceSupport.UNSUPPORTED;
  }

  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }

  /**
   * Validates offsets written through Connect's REST API (KIP-875) as {@code sf2loki state set}
   * validates a checkpoint ({@link OffsetRepairs}); Connect answers 400 with the message.
   *
   * @throws ConnectException naming every partition that may not be written
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    Shards shards;
    try {
      shards =
          new ConnectorSettings(connectorConfig)
              .bind(getClass().getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    List<String> problems =
        OffsetRepairs.problems(Set.copyOf(ConnectorSettings.orgNames(shards)), offsets);
    if (!problems.isEmpty()) {
      throw new ConnectException(String.join("; ", problems));
    }
    return true;
  }

  @Override
  public void stop() {
    // nothing runs in the connector itself: the tasks own the sources
  }
}
