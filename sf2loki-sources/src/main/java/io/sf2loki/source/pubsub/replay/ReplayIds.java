package io.sf2loki.source.pubsub.replay;

import com.google.protobuf.ByteString;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Replay ids as the checkpoint document stores them: standard base64 with padding of the raw bytes
 * under {@code pubsub:<topic>} (the Python original's format). Never decimal, never computed.
 */
public final class ReplayIds {

  private static final Pattern STRICT_BASE64 =
      Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  private ReplayIds() {}

  /** The checkpoint key of {@code topic}. */
  public static String key(String topic) {
    return "pubsub:" + topic;
  }

  /** The stored form of {@code id}. */
  public static String encode(ByteString id) {
    return Base64.getEncoder().encodeToString(id.toByteArray());
  }

  /**
   * The id a stored value denotes; empty when it is not strict standard base64 (bad alphabet, bad
   * padding, whitespace) or empty.
   */
  public static Optional<ByteString> decode(String stored) {
    if (stored.isEmpty() || !STRICT_BASE64.matcher(stored).matches()) {
      return Optional.empty();
    }
    return Optional.of(ByteString.copyFrom(Base64.getDecoder().decode(stored)));
  }

  /** Lowercase hex of the id bytes: the sampling key and the id in logs. */
  public static String hex(ByteString id) {
    return HexFormat.of().formatHex(id.toByteArray());
  }
}
