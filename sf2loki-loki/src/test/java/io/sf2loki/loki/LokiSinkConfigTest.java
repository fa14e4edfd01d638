package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LokiSinkConfigTest {

  @TempDir Path dir;

  ConfigReader read(String hocon) throws Exception {
    Path file = dir.resolve("sf2loki.conf");
    Files.writeString(file, hocon);
    return new ConfigLoader(getClass().getClassLoader(), Map.of())
        .load(Optional.of(file))
        .reader()
        .section("sink.loki");
  }

  static List<String> messages(ConfigReader r) {
    return r.problems().stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void retiredSinkRetryKeysAreStillAcceptedAndChecked() throws Exception {
    ConfigReader ok =
        read("sink.loki { url = \"http://loki\", retry { attempts = 9, min_backoff = 1s } }");
    LokiSinkConfig.bind(ok);
    assertThat(ok.problems()).isEmpty();

    ConfigReader bad = read("sink.loki { url = \"http://loki\", retry { attempts = 0 } }");
    LokiSinkConfig.bind(bad);
    assertThat(messages(bad)).anySatisfy(m -> assertThat(m).contains("sink.loki.retry.attempts"));
  }

  @Test
  void aRetiredRetryKeySetByTheUserIsNamedInAWarning() throws Exception {
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
        new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LokiSinkConfig.class);
    logger.addAppender(log);
    try {
      LokiSinkConfig.bind(read("sink.loki { url = \"http://loki\", retry { attempts = 9 } }"));
      LokiSinkConfig.bind(read("sink.loki.url = \"http://loki\""));
    } finally {
      logger.detachAppender(log);
    }
    assertThat(log.list)
        .extracting(e -> e.getFormattedMessage())
        .containsExactly(
            "sink.loki.retry.attempts is retired and ignored: the lane retries every failed push"
                + " itself, with sink.loki.retry.lane_min_backoff and"
                + " sink.loki.retry.lane_max_backoff");
  }

  @Test
  void deadLetterAndPushUrlDefaultsBind() throws Exception {
    ConfigReader r = read("sink.loki.url = \"http://loki:3100\"");

    LokiSinkConfig c = LokiSinkConfig.bind(r);

    assertThat(r.problems()).isEmpty();
    assertThat(c.deadLetterFile()).isEmpty();
    assertThat(c.pushUrl().toString()).isEqualTo("http://loki:3100/loki/api/v1/push");
  }

  @Test
  void overridingSourceOrEventTypeIsAConfigurationError() throws Exception {
    ConfigReader r =
        read("sink.loki { url = \"http://loki\", labels { source = x, event_type = y } }");

    LokiSinkConfig.bind(r);

    assertThat(messages(r))
        .anySatisfy(m -> assertThat(m).contains("sink.loki.labels.source cannot be set"))
        .anySatisfy(m -> assertThat(m).contains("sink.loki.labels.event_type cannot be set"));
  }

  @Test
  void labelOutsideTheAllowlistIsAConfigurationError() throws Exception {
    ConfigReader r = read("sink.loki { url = \"http://loki\", labels { team = sre } }");

    LokiSinkConfig.bind(r);

    assertThat(messages(r))
        .anySatisfy(m -> assertThat(m).contains("sink.loki.labels.team is not an allowed label"));
  }

  @Test
  void laneBackoffBoundsMustBeOrdered() throws Exception {
    ConfigReader r =
        read(
            "sink.loki { url = \"http://loki\", retry { lane_min_backoff = 10s,"
                + " lane_max_backoff = 1s } }");

    io.sf2loki.config.LaneConfig c = io.sf2loki.config.LaneConfig.bind(r);

    assertThat(c.retryMinBackoff()).isEqualTo(Duration.ofSeconds(10));
    assertThat(messages(r))
        .anySatisfy(
            m -> assertThat(m).contains("sink.loki.retry.lane_max_backoff must not be less than"));
  }

  @Test
  void deadLetterFileInAMissingDirectoryIsAConfigurationError() throws Exception {
    ConfigReader r =
        read("sink.loki { url = \"http://loki\", dead_letter_file = \"/nonexistent/d/x.jsonl\" }");

    LokiSinkConfig.bind(r);

    assertThat(messages(r)).anySatisfy(m -> assertThat(m).contains("sink.loki.dead_letter_file"));
  }
}
