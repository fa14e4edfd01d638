package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.testing.LogCapture;
import io.sf2loki.testkit.salesforce.LogFileSchema;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each event type's columns are watched for changes between its files (schema drift). */
class EventLogFileSchemaIT {

  private static final String KEY = ElfCursors.key("Login");
  private static final LogFileSchema CHANGED =
      LogFileSchema.STANDARD.plus("LOGIN_KEY", "String").minus("URI").retyped("RUN_TIME", "String");

  private final ElfFixture fx = new ElfFixture();
  private final LogCapture log = new LogCapture(ElfSchemas.class);

  @AfterEach
  void close() throws Exception {
    log.close();
    fx.close();
  }

  private double changes(String type) {
    return fx.counter("sf2loki_eventlogfile_schema_changes", "event_type", type);
  }

  private void changeFrom(LogFileSpec first, LogFileSchema schema) {
    fx.sf.changeSchema("Login", first.createdDate(), schema);
  }

  private RecordingSourceContext cycle(RecordingSourceContext ctx) throws Exception {
    fx.source(ElfFixture.config(List.of("Login", "API"))).cycleOnce(ctx);
    return ctx;
  }

  @Test
  void aChangeOfATypesColumnsIsCountedAndLoggedOnceWithTheDifference() throws Exception {
    fx.file("Login", 50, 2);
    LogFileSpec changed = fx.file("Login", 40, 2);
    fx.file("Login", 30, 2);
    changeFrom(changed, CHANGED);

    cycle(new RecordingSourceContext());

    assertThat(changes("Login")).isEqualTo(1);
    assertThat(log.warnings())
        .containsExactly(
            "EventLogFile Login: columns changed: +LOGIN_KEY, -URI, RUN_TIME Number->String");
  }

  @Test
  void ingestionGoesOnWithTheNewColumns() throws Exception {
    LogFileSpec before = fx.file("Login", 50, 2);
    LogFileSpec changed = fx.file("Login", 40, 3);
    changeFrom(changed, CHANGED);

    RecordingSourceContext ctx = cycle(new RecordingSourceContext());

    assertThat(ctx.rowsOf("Login").stream().map(LogEntry::line).toList())
        .containsExactlyElementsOf(fx.expectedLines(before, changed));
    assertThat(ctx.rowsOf("Login").get(2).line()).contains("\"LOGIN_KEY\": \"login_key-0\"");
  }

  @Test
  void eachTypeIsComparedWithItsOwnFilesOnly() throws Exception {
    fx.file("Login", 50, 1);
    LogFileSpec changed = fx.file("Login", 40, 1);
    fx.file("API", 45, 1);
    fx.file("API", 35, 1);
    changeFrom(changed, CHANGED);

    cycle(new RecordingSourceContext());

    assertThat(changes("Login")).isEqualTo(1);
    assertThat(changes("API")).isZero();
  }

  @Test
  void theSameColumnsInAnotherOrderAreNoChange() throws Exception {
    fx.file("Login", 50, 1);
    LogFileSpec reordered = fx.file("Login", 40, 1);
    List<LogFileSchema.Column> columns = new ArrayList<>(LogFileSchema.STANDARD.columns());
    java.util.Collections.reverse(columns);
    changeFrom(reordered, new LogFileSchema(columns));

    cycle(new RecordingSourceContext());

    assertThat(changes("Login")).isZero();
    assertThat(log.warnings()).isEmpty();
  }

  @Test
  void theSchemaRidesOnTheCheckpointSoAChangeAcrossARestartIsCounted() throws Exception {
    fx.file("Login", 50, 2);
    RecordingSourceContext first = cycle(new RecordingSourceContext());
    String committed = first.deliverAll().get(KEY);
    LogFileSpec changed = fx.file("Login", 40, 2);
    changeFrom(changed, CHANGED);
    RecordingSourceContext restarted = new RecordingSourceContext().committed(KEY, committed);

    cycle(restarted);

    assertThat(ElfCheckpoint.parse(committed).schema()).isPresent();
    assertThat(changes("Login")).isEqualTo(1);
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .startsWith("EventLogFile Login: columns changed since the schema its checkpoint recorded")
        .contains("LOGIN_KEY String");
    assertThat(ElfCheckpoint.parse(restarted.deliverAll().get(KEY)).schema())
        .isNotEqualTo(ElfCheckpoint.parse(committed).schema());
  }

  @Test
  void withoutARecordedSchemaTheFirstFileAfterAStartIsTheBaseline() throws Exception {
    LogFileSpec changed = fx.file("Login", 40, 2);
    changeFrom(changed, CHANGED);
    String legacy =
        ElfCheckpoint.initial(
                io.sf2loki.salesforce.soql.Soql.datetimeLiteral(
                    Instant.now()
                        .minus(Duration.ofHours(2))
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)))
            .format();

    cycle(new RecordingSourceContext().committed(KEY, legacy));

    assertThat(changes("Login")).isZero();
  }

  @Test
  void aZeroRowFileRecordsItsColumnsToo() throws Exception {
    fx.file("Login", 50, 2);
    LogFileSpec empty = fx.file("Login", 40, 0);
    fx.file("Login", 30, 1);
    changeFrom(empty, CHANGED);

    cycle(new RecordingSourceContext());

    assertThat(changes("Login")).isEqualTo(1); // at the empty file, not again at the next one
  }
}
