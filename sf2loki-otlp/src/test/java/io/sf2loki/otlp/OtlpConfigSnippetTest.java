package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.LokiOtlpRules;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The {@code otlp_config} snippet of docs/sinks/otlp.md, applied by the fake receiver as Loki
 * applies it, makes {@code event_type} and {@code source} stream labels of what the sink sends (and
 * {@code late} of the entries routed late), and is what {@code sink.otlp.loki} assumes.
 */
class OtlpConfigSnippetTest {

  static final Path DOC = Path.of("..", "docs", "sinks", "otlp.md");
  static final Pattern SNIPPET =
      Pattern.compile("<!-- otlp_config:[^>]*-->\\s*```yaml\\n(.*?)```", Pattern.DOTALL);
  static final Pattern PROMOTION =
      Pattern.compile(
          "otlp_config:\\s*\\n\\s*log_attributes:\\s*\\n\\s*- action: index_label\\s*\\n"
              + "\\s*attributes: \\[([^\\]]*)\\]");

  static Set<String> promotedBySnippet() throws Exception {
    Matcher block = SNIPPET.matcher(Files.readString(DOC));
    assertThat(block.find()).as("the otlp_config snippet of " + DOC).isTrue();
    Matcher promotion = PROMOTION.matcher(block.group(1));
    assertThat(promotion.find()).as("an index_label action on log_attributes").isTrue();
    return Arrays.stream(promotion.group(1).split(","))
        .map(String::strip)
        .collect(Collectors.toSet());
  }

  static ReceivedLogRecord exportOne(LokiOtlpRules rules) throws Exception {
    try (FakeOtlpLogs otlp = FakeOtlpLogs.builder().rules(rules).start();
        OtlpSink sink =
            new OtlpSink(
                OtlpConfigs.to(otlp.uri().resolve("/otlp")).namespace("acme").build(),
                new SimpleMeterRegistry(),
                Clock.systemUTC())) {
      sink.push(
          new Batch(
              List.of(
                  LogEntry.of(
                      1L,
                      Map.of("source", "eventlogfile", "event_type", "Login", "job", "sf2loki"),
                      "{}",
                      Map.of("USER_ID", "005x", "level", "info"),
                      Optional.empty()))));
      return otlp.records().get(0);
    }
  }

  @Test
  void theDocumentedSnippetMakesEventTypeAndSourceStreamLabels() throws Exception {
    Set<String> promoted = promotedBySnippet();

    ReceivedLogRecord r = exportOne(LokiOtlpRules.promoting(promoted));

    assertThat(promoted).containsExactlyInAnyOrder("event_type", "source", "late");
    assertThat(r.lokiLabels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "service_name", "salesforce",
                "service_namespace", "acme",
                "event_type", "Login",
                "source", "eventlogfile"));
    assertThat(r.lokiMetadata()).containsEntry("USER_ID", "005x").containsEntry("job", "sf2loki");
  }

  @Test
  void theDocumentedSnippetIndexesWhatTheTimeWindowPlanningAssumesByDefault() throws Exception {
    OtlpSinkConfig c =
        OtlpSinkConfigTest.bind("sink.otlp { url = \"http://l\", loki.enabled = true }");

    assertThat(c.loki().orElseThrow().indexAttributes())
        .containsExactlyInAnyOrderElementsOf(promotedBySnippet());
  }

  @Test
  void withoutItLokiKeepsThemAsStructuredMetadata() throws Exception {
    ReceivedLogRecord r = exportOne(LokiOtlpRules.defaults());

    assertThat(r.lokiLabels()).doesNotContainKeys("event_type", "source");
    assertThat(r.lokiMetadata())
        .containsEntry("event_type", "Login")
        .containsEntry("source", "eventlogfile");
  }
}
