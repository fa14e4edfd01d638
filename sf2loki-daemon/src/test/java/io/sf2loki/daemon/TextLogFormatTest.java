package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The text log format names the org of an org's thread before the message, and nothing else. */
class TextLogFormatTest {

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Encoder<ILoggingEvent> text = LoggingSetup.encoder(context, "text");

  private String encode(Map<String, String> mdc) {
    LoggingEvent event =
        new LoggingEvent(
            "x",
            context.getLogger("io.sf2loki.engine.TermRunner"),
            Level.INFO,
            "ready",
            null,
            null);
    event.setThreadName("sf2loki-term-4");
    event.setMDCPropertyMap(mdc);
    return new String(text.encode(event), StandardCharsets.UTF_8);
  }

  @Test
  void anOrgsLineNamesTheOrgBeforeTheMessage() {
    assertThat(encode(Map.of("org", "emea")))
        .endsWith("io.sf2loki.engine.TermRunner - org=emea: ready\n");
  }

  @Test
  void aLineWithoutAnOrgIsAsItWas() {
    assertThat(encode(Map.of())).endsWith("io.sf2loki.engine.TermRunner - ready\n");
  }
}
