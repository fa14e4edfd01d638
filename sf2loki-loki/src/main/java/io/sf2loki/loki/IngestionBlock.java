package io.sf2loki.loki;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loki's answer for a tenant whose ingestion an operator blocked ({@code block_ingestion_until},
 * Loki 3.2+): status {@code block_ingestion_status_code} (260 unless set) and the distributor's
 * text {@code ingestion blocked for user 'acme' until '2026-12-07T05:00:00Z' with status code
 * '260'}, or with {@code (policy: 'p')} after the user for a policy block. Nothing of the push was
 * stored.
 *
 * @param tenant the tenant the text names, or the configured one when the body names none
 * @param policy the blocked policy, for a policy block
 * @param until when the block ends, when the body names it
 */
record IngestionBlock(String tenant, Optional<String> policy, Optional<Instant> until) {

  /** Loki's default {@code block_ingestion_status_code}. */
  static final int STATUS = 260;

  private static final Pattern TEXT =
      Pattern.compile(
          "ingestion blocked for user '([^']*)'(?: \\(policy: '([^']*)'\\))? until '([^']*)'");

  /**
   * The block an answer reports: any answer whose body carries Loki's text, or a bare 260.
   *
   * @param configuredTenant {@code sink.loki.tenant_id}, named when the body names no tenant
   */
  static Optional<IngestionBlock> of(int status, String body, String configuredTenant) {
    Matcher m = TEXT.matcher(body);
    if (m.find()) {
      return Optional.of(
          new IngestionBlock(m.group(1), Optional.ofNullable(m.group(2)), instant(m.group(3))));
    }
    if (status == STATUS) {
      return Optional.of(new IngestionBlock(configuredTenant, Optional.empty(), Optional.empty()));
    }
    return Optional.empty();
  }

  /** Go's {@code time.RFC3339}: an offset or {@code Z}, optional fraction. */
  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** {@code tenant 'acme' (policy 'p') until 2026-12-07T05:00:00Z}, for log lines. */
  String describe() {
    return "tenant '"
        + tenant
        + "'"
        + policy.map(p -> " (policy '" + p + "')").orElse("")
        + until.map(u -> " until " + u).orElse(" (Loki named no end)");
  }
}
