package io.sf2loki.daemon;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.sf2loki.config.ServiceConfig;
import io.sf2loki.daemon.logging.LogfmtEncoder;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code service.log_level} and {@code service.log_format} to Logback once the config is
 * loaded: human-readable text by default, one JSON object per line with {@code json}, {@code
 * key=value} pairs with {@code logfmt} ({@link LogfmtEncoder}). Noisy client libraries are floored
 * at WARN.
 */
final class LoggingSetup {

  private static final List<String> NOISY =
      List.of(
          "org.apache.hc",
          "io.grpc",
          "io.netty",
          "software.amazon",
          "com.google",
          "io.kubernetes",
          "okhttp3");

  private LoggingSetup() {}

  /**
   * @param debug {@code --debug}: {@code io.sf2loki} at DEBUG whatever {@code service.log_level}
   */
  static void apply(ServiceConfig service, boolean debug) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return; // another SLF4J binding: leave its configuration alone
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setEncoder(encoder(context, service.logFormat()));
    console.start();
    root.addAppender(console);
    root.setLevel(Level.toLevel(service.logLevel(), Level.INFO));
    for (String name : NOISY) {
      context.getLogger(name).setLevel(Level.WARN);
    }
    if (debug) {
      context.getLogger("io.sf2loki").setLevel(Level.DEBUG);
    }
  }

  static Encoder<ILoggingEvent> encoder(LoggerContext context, String format) {
    if ("logfmt".equals(format)) {
      LogfmtEncoder logfmt = new LogfmtEncoder();
      logfmt.setContext(context);
      logfmt.start();
      return logfmt;
    }
    if ("json".equals(format)) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(context);
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithContext(false);
      json.setWithArguments(false);
      json.setWithMessage(false);
      json.setWithFormattedMessage(true);
      json.start();
      return json;
    }
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(context);
    // With orgs, an org's threads carry org=<name> in the MDC: "... - org=emea: <message>".
    text.setPattern(
        "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX,UTC} %-5level [%thread] %logger{30} -"
            + " %replace(org=%X{org}: ){'^org=: $', ''}%msg%n");
    text.start();
    return text;
  }
}
