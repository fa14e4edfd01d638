package io.sf2loki.coordinate.filelease;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * The lease document {@code {"holder": "<id>", "expires_at": "<ISO-8601 UTC>", "epoch": <int>}},
 * compatible with the Python sf2loki.
 *
 * @param holder the identity that holds (or last held) the lease
 * @param expiresAt wall-clock expiry; the lease is claimable from this instant on
 * @param epoch the fencing epoch of the holder's term
 */
public record FileLeaseDocument(String holder, Instant expiresAt, long epoch) {

  private static final DateTimeFormatter ISO_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);

  public FileLeaseDocument {
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(expiresAt, "expiresAt");
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
