package io.sf2loki.connect;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigProblem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Delivers the entries the source connector wrote to Kafka into Loki with sf2loki's Loki sink
 * ({@link LokiSinkTask}). Its sf2loki configuration needs {@code sink.loki}; the other sections are
 * validated as for the daemon and otherwise unused. {@code sink.loki.egress} applies: each task
 * gets an even share of the rate caps, and the daily byte budget is the connector's, its use kept
 * in the consumer group's committed offsets ({@link GroupUsage}).
 */
public final class LokiSinkConnector extends SinkConnector {

  private Map<String, String> properties = Map.of();

  @Override
  public String version() {
    return BuildInfo.version();
  }

  @Override
  public ConfigDef config() {
    return ConnectorSettings.SINK_DEFINITION;
  }

  /** Connect's checks, then the sf2loki binding's problems on {@code sf2loki.config}. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config checked = super.validate(connectorConfigs);
    if (checked.configValues().stream().anyMatch(v -> !v.errorMessages().isEmpty())) {
      return checked;
    }
    ConnectorSettings settings = ConnectorSettings.ofSink(connectorConfigs);
    List<String> problems = new ArrayList<>();
    try {
      settings.bind(getClass().getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException e) {
      e.problems().stream().map(ConfigProblem::toString).forEach(problems::add);
    }
    for (ConfigValue value : checked.configValues()) {
      if (value.name().equals(settings.configKey())) {
        problems.forEach(value::addErrorMessage);
      }
    }
    return checked;
  }

  @Override
  public void start(Map<String, String> props) {
    try {
      ConnectorSettings.ofSink(props)
          .bind(getClass().getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    this.properties = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return LokiSinkTask.class;
  }

  /**
   * Every task the same (Connect spreads the topics' partitions over them), told how many share the
   * egress rate caps and which consumer group keeps the day's egress use.
   */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    Map<String, String> task = new HashMap<>(properties);
    task.put(ConnectorSettings.TASK_COUNT, String.valueOf(maxTasks));
    task.put(ConnectorSettings.TASK_GROUP, ConnectorSettings.ofSink(properties).sinkGroup());
    return Collections.nCopies(maxTasks, Map.copyOf(task));
  }

  @Override
  public void stop() {
    // the tasks own the sinks
  }
}
