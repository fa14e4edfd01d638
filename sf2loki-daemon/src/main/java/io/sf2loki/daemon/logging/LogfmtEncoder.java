package io.sf2loki.daemon.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code service.log_format = logfmt}: one line per event of {@code key=value} pairs, {@code ts}
 * (ISO-8601 UTC), {@code level}, {@code thread}, {@code logger}, {@code msg}, then the MDC entries
 * and, for an event with a throwable, {@code exception} (its class and message) and {@code stack}
 * (the trace, newlines escaped). A value is quoted when it is empty or holds a space, {@code =},
 * {@code "} or a control character; inside quotes {@code \}, {@code "}, newline, carriage return
 * and tab are escaped as in Go's logfmt, other control characters as {@code \}{@code u00XX}.
 */
public final class LogfmtEncoder extends EncoderBase<ILoggingEvent> {

  @Override
  public byte[] headerBytes() {
    return new byte[0];
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(256);
    pair(line, "ts", Instant.ofEpochMilli(event.getTimeStamp()).toString());
    pair(line, "level", event.getLevel().toString());
    pair(line, "thread", event.getThreadName());
    pair(line, "logger", event.getLoggerName());
    pair(line, "msg", event.getFormattedMessage());
    Map<String, String> mdc = event.getMDCPropertyMap();
    if (mdc != null) {
      new TreeMap<>(mdc).forEach((k, v) -> pair(line, key(k), v));
    }
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      pair(line, "exception", thrown.getClassName() + ": " + thrown.getMessage());
      pair(line, "stack", ThrowableProxyUtil.asString(thrown).strip());
    }
    line.append('\n');
    return line.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] footerBytes() {
    return new byte[0];
  }

  private static void pair(StringBuilder line, String key, String value) {
    if (line.length() > 0) {
      line.append(' ');
    }
    line.append(key).append('=');
    value(line, value == null ? "" : value);
  }

  /** An MDC key as a logfmt key: no space, {@code =}, {@code "} or control character. */
  private static String key(String k) {
    StringBuilder out = new StringBuilder(k.length());
    for (int i = 0; i < k.length(); i++) {
      char c = k.charAt(i);
      out.append(c <= ' ' || c == '=' || c == '"' || c == 0x7f ? '_' : c);
    }
    return out.length() == 0 ? "_" : out.toString();
  }

  static void value(StringBuilder line, String v) {
    if (!needsQuotes(v)) {
      line.append(v);
      return;
    }
    line.append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '\\' -> line.append("\\\\");
        case '"' -> line.append("\\\"");
        case '\n' -> line.append("\\n");
        case '\r' -> line.append("\\r");
        case '\t' -> line.append("\\t");
        default -> {
          if (c < ' ' || c == 0x7f) {
            line.append(String.format("\\u%04x", (int) c));
          } else {
            line.append(c);
          }
        }
      }
    }
    line.append('"');
  }

  private static boolean needsQuotes(String v) {
    if (v.isEmpty()) {
      return true;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c <= ' ' || c == '=' || c == '"' || c == 0x7f) {
        return true;
      }
    }
    return false;
  }
}
