package io.sf2loki.coordinate.filelease;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;

/**
 * The lease document {@code {"holder": "<id>", "expires_at": "<ISO-8601 UTC>", "epoch": <int>,
 * "instance": "<token>"}}, compatible with the Python sf2loki (which ignores {@code instance} and
 * writes none).
 *
 * @param holder the identity that holds (or last held) the lease
 * @param expiresAt wall-clock expiry; the lease is claimable from this instant on
 * @param epoch the fencing epoch of the holder's term
 * @param instance the random per-process token of the writer: two processes configured with one
 *     holder id write different tokens, so neither takes the other's lease for its own
 */
public record FileLeaseDocument(
    String holder, Instant expiresAt, long epoch, Optional<String> instance) {

  private static final DateTimeFormatter ISO_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);

  public FileLeaseDocument {
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(instance, "instance");
  }

  /** A document without an instance token, as the Python sf2loki writes it. */
  public FileLeaseDocument(String holder, Instant expiresAt, long epoch) {
    this(holder, expiresAt, epoch, Optional.empty());
  }

  /** True when {@code holder} and {@code instance} both are this document's. */
  public boolean writtenBy(String holder, String instance) {
    return this.holder.equals(holder) && this.instance.equals(Optional.of(instance));
  }

  /** True when the lease is claimable at {@code now} ({@code now >= expires_at}). */
  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }

  /** The single-line JSON form, {@code expires_at} with a {@code +00:00} offset. */
  public byte[] toJson() {
    return ("{\"holder\": \""
            + escape(holder)
            + "\", \"expires_at\": \""
            + ISO_UTC.format(expiresAt)
            + "\", \"epoch\": "
            + epoch
            + instance.map(i -> ", \"instance\": \"" + escape(i) + "\"").orElse("")
            + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
