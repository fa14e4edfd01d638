package io.sf2loki.loki;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Parses {@code Retry-After}: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
final class RetryAfter {

  private RetryAfter() {}

  /** The delay asked for; empty when absent or unparseable, zero for a date in the past. */
  static Optional<Duration> parse(String header, Clock clock) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String v = header.trim();
    if (v.chars().allMatch(Character::isDigit)) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
      } catch (NumberFormatException e) {
        return Optional.empty(); // absurdly long: treat as absent, the backoff still applies
      }
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration d = Duration.between(clock.instant(), at.toInstant());
      return Optional.of(d.isNegative() ? Duration.ZERO : d);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
