package io.sf2loki.source.eventlogobjects;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.testkit.salesforce.EventLogObjects;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The {@code event_log_objects} preset: the org's Event Log Objects, found at run time. */
class EventLogObjectDiscoveryIT {

  private static final String PRESET =
      "presets = [event_log_objects], poll_interval = 10m, lookback = 1d";

  final ObjectsHarness h = new ObjectsHarness();
  final EventLogObjects elo = h.sf.eventLogObjects();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeEach
  void capture() {
    logs.setContext(root.getLoggerContext());
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void close() throws Exception {
    root.detachAppender(logs);
    h.close();
  }

  private void rowIn(String object) {
    elo.define(object);
    elo.add(object, ObjectsHarness.START.minus(Duration.ofHours(2)), Map.of());
  }

  private static TreeSet<String> types(List<LogEntry> lines) {
    TreeSet<String> out = new TreeSet<>();
    lines.forEach(e -> out.add(e.labels().get("event_type")));
    return out;
  }

  private List<String> errors() {
    synchronized (logs) {
      return logs.list.stream()
          .filter(e -> e.getLevel() == Level.ERROR)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  @Test
  void thePresetReadsEveryEventLogObjectTheOrgListsButTheExcludedOnes() throws Exception {
    rowIn("LoginEventLog");
    rowIn("ReportEventLog");
    rowIn("ApiTotalUsageEventLog");

    RecordingSourceContext ctx =
        h.run(
            PRESET
                + ", event_log_objects_exclude = [\"Api*\"],"
                + " objects = [{name = LoginEventLog, settle_window = 1h}]",
            afterWaits(1));

    assertThat(types(ctx.lines())).containsExactly("LoginEventLog", "ReportEventLog");
    assertThat(h.sf.queries()).noneMatch(q -> q.contains("ApiTotalUsageEventLog"));
    assertThat(elo.refusals()).isZero();
  }

  @Test
  void anOrgWithoutEventLogObjectsIsOneErrorNamingWhatIsMissingNotOnePerPoll() throws Exception {
    RecordingSourceContext ctx = h.run(PRESET, afterWaits(4));

    assertThat(ctx.lines()).isEmpty();
    assertThat(errors())
        .singleElement()
        .asString()
        .contains("event_log_objects", "View Event Log Object Data", "Shield");
  }

  @Test
  void aUserWithoutThePermissionIsOneErrorAndNoEventLogObjectIsQueried() throws Exception {
    rowIn("LoginEventLog");
    elo.revokeAccess();

    RecordingSourceContext ctx = h.run(PRESET, afterWaits(3));

    assertThat(ctx.lines()).isEmpty();
    assertThat(errors()).singleElement().asString().contains("View Event Log Object Data");
    assertThat(h.sf.queries()).noneMatch(q -> q.contains("EventLog"));
  }
}
