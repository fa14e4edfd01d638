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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * eventlog_objects reading Event Log Objects ({@code *EventLog}) through the source: random
 * visibility lag, a 3,000-row tie on one millisecond, restarts, a user without the permission.
 */
class EventLogObjectModeIT {

  private static final Pattern REQUEST = Pattern.compile("\"RequestIdentifier\": \"([^\"]+)\"");
  private static final String CONFIG =
      "objects = [{name = LoginEventLog}, {name = ReportEventLog}], poll_interval = 10m,"
          + " lookback = 3d";

  final ObjectsHarness h = new ObjectsHarness();
  final EventLogObjects elo = h.sf.eventLogObjects();

  @AfterEach
  void close() throws Exception {
    h.close();
  }

  /** Two days of rows up to now on the fake's clock, and a tie of 3,000 an hour ago. */
  private List<String> populate() {
    List<String> all = new ArrayList<>();
    Random random = new Random(3);
    for (String object : List.of("LoginEventLog", "ReportEventLog")) {
      elo.define(object);
      for (int i = 0; i < 1500; i++) {
        Instant at =
            ObjectsHarness.START.minusMillis((long) (random.nextDouble() * 2 * 86_400_000L));
        all.add(id(elo.add(object, at, Map.of())));
      }
    }
    elo.addTie("LoginEventLog", ObjectsHarness.START.minus(Duration.ofHours(1)), 3000)
        .forEach(r -> all.add(id(r)));
    return all;
  }

  private static String id(EventLogObjects.Row r) {
    return (String) r.fields().get("RequestIdentifier");
  }

  private static List<String> requests(List<LogEntry> lines) {
    List<String> out = new ArrayList<>();
    for (LogEntry e : lines) {
      Matcher m = REQUEST.matcher(e.line());
      out.add(m.find() ? m.group(1) : "?");
    }
    return out;
  }

  @Test
  void everyRowArrivesExactlyOnceAndNoQueryIsRefused() throws Exception {
    List<String> all = populate();

    RecordingSourceContext ctx = h.run(CONFIG, afterWaits(12)); // two hours of 10-minute polls

    assertThat(requests(ctx.lines())).containsExactlyInAnyOrderElementsOf(all);
    assertThat(elo.refusals()).isZero();
    assertThat(h.checkpoints.get("eventlog_objects:LoginEventLog")).startsWith("{\"from\": ");
  }

  @Test
  void aRestartResumesFromTheCommittedTokenWithoutLossOrRepeat() throws Exception {
    List<String> all = populate();

    RecordingSourceContext first = h.run(CONFIG, afterWaits(1));
    RecordingSourceContext second = h.run(CONFIG, afterWaits(12));

    List<String> got = new ArrayList<>(requests(first.lines()));
    got.addAll(requests(second.lines()));
    assertThat(requests(first.lines())).isNotEmpty().hasSizeLessThan(all.size());
    assertThat(got).containsExactlyInAnyOrderElementsOf(all);
    assertThat(elo.refusals()).isZero();
  }

  @Test
  void withoutThePermissionNothingIsQueriedAndTheSourceKeepsPolling() throws Exception {
    populate();
    elo.revokeAccess();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.setContext(root.getLoggerContext());
    logs.start();
    root.addAppender(logs);

    RecordingSourceContext ctx;
    try {
      ctx = h.run(CONFIG, afterWaits(3));
    } finally {
      root.detachAppender(logs);
    }

    assertThat(logs.list.stream().filter(e -> e.getLevel() == Level.ERROR))
        .as("one ERROR for both objects and every poll")
        .singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains("View Event Log Object Data"));

    assertThat(ctx.lines()).isEmpty();
    assertThat(ctx.waits()).isEqualTo(3);
    assertThat(h.sf.queries()).noneMatch(q -> q.contains("EventLog"));
  }
}
