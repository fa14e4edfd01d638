package io.sf2loki.daemon.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Every event is one logfmt line that a strict logfmt reader parses back to what was logged. */
class LogfmtEncoderTest {

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger logger = context.getLogger("io.sf2loki.engine.TermRunner");
  private final LogfmtEncoder encoder = new LogfmtEncoder();

  LogfmtEncoderTest() {
    encoder.setContext(context);
    encoder.start();
  }

  private String encode(String message, Throwable thrown) {
    LoggingEvent event = new LoggingEvent("x", logger, Level.WARN, message, thrown, null);
    event.setTimeStamp(1_796_000_064_049L);
    event.setThreadName("sf2loki-term-4");
    return new String(encoder.encode(event), StandardCharsets.UTF_8);
  }

  @Test
  void anEventIsOneLineOfKeyValuePairs() {
    String line = encode("sf2loki ready — streaming to Loki (epoch 4)", null);

    assertThat(line).endsWith("\n").doesNotContain("\n\n");
    assertThat(line.strip()).doesNotContain("\n");
    Map<String, String> pairs = Logfmt.parse(line.strip());
    assertThat(pairs)
        .containsExactly(
            Map.entry("ts", "2026-11-30T00:54:24.049Z"),
            Map.entry("level", "WARN"),
            Map.entry("thread", "sf2loki-term-4"),
            Map.entry("logger", "io.sf2loki.engine.TermRunner"),
            Map.entry("msg", "sf2loki ready — streaming to Loki (epoch 4)"));
  }

  @Test
  void valuesWithSpacesQuotesEqualsSignsAndControlCharactersAreQuotedAndEscaped() {
    String message = "key=\"v\" path C:\\tmp\nsecond\tline \u0001 end";

    String line = encode(message, null).strip();

    assertThat(line).contains("msg=\"key=\\\"v\\\" path C:\\\\tmp\\nsecond\\tline \\u0001 end\"");
    assertThat(Logfmt.parse(line)).containsEntry("msg", message);
  }

  @Test
  void bareValuesStayBareAndAnEmptyMessageIsQuoted() {
    assertThat(encode("ok", null)).contains(" msg=ok\n");
    assertThat(encode("", null)).contains(" msg=\"\"\n");
    assertThat(Logfmt.parse(encode("", null).strip())).containsEntry("msg", "");
  }

  @Test
  void aThrowableAddsItsClassMessageAndTheStackOnTheSameLine() {
    String line = encode("lane delivery failed", new IOException("boom \"now\"")).strip();

    assertThat(line).doesNotContain("\n");
    Map<String, String> pairs = Logfmt.parse(line);
    assertThat(pairs).containsEntry("exception", "java.io.IOException: boom \"now\"");
    assertThat(pairs.get("stack"))
        .startsWith("java.io.IOException: boom \"now\"")
        .contains("\tat io.sf2loki.daemon.logging.LogfmtEncoderTest");
  }
}
