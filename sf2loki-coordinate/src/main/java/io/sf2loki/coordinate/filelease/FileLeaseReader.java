package io.sf2loki.coordinate.filelease;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.spi.IoFailures;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads lease documents. Stateless and reusable: the coordinator, {@code lease show} and {@code
 * doctor} share it.
 *
 * <p>Rules: a missing file is absent; any other I/O error is unknown; invalid UTF-8 or JSON, a top
 * level that is not an object, a {@code holder} or {@code expires_at} that is not a string, or an
 * {@code expires_at} that is not ISO-8601 is corrupt; a naive {@code expires_at} is UTC; a missing
 * or non-integer {@code epoch} (or one out of range) is 0; a missing or non-string {@code instance}
 * is none.
 */
public final class FileLeaseReader {

  /** The configuration key of the lease's path, named by the fix of a permanent read error. */
  static final String PATH_KEY = "coordinate.file_lease.path";

  private static final long MAX_EPOCH = 1L << 62;
  private final ObjectMapper json = new ObjectMapper();

  /** Reads and parses the file at {@code path}; never throws. */
  public LeaseRead read(Path path) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return new LeaseRead.Absent();
    } catch (IOException | SecurityException e) {
      return new LeaseRead.Unknown(
          "cannot read " + path + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")",
          IoFailures.classify(e, "lease", path.toString(), PATH_KEY));
    }
    return parse(bytes);
  }

  /** Parses lease bytes; never throws. */
  public LeaseRead parse(byte[] bytes) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return new LeaseRead.Corrupt("not valid UTF-8");
    }
    JsonNode root;
    try {
      root = json.readTree(text);
    } catch (JsonProcessingException e) {
      return new LeaseRead.Corrupt("not JSON");
    }
    if (root == null || !root.isObject()) {
      return new LeaseRead.Corrupt("not a JSON object");
    }
    JsonNode holder = root.get("holder");
    JsonNode expires = root.get("expires_at");
    if (holder == null || !holder.isTextual()) {
      return new LeaseRead.Corrupt("holder is not a string");
    }
    if (expires == null || !expires.isTextual()) {
      return new LeaseRead.Corrupt("expires_at is not a string");
    }
    Optional<Instant> expiresAt = parseInstant(expires.textValue());
    if (expiresAt.isEmpty()) {
      return new LeaseRead.Corrupt("expires_at is not an ISO-8601 time");
    }
    JsonNode instance = root.get("instance");
    return new LeaseRead.Present(
        new FileLeaseDocument(
            holder.textValue(),
            expiresAt.get(),
            epoch(root.get("epoch")),
            instance != null && instance.isTextual()
                ? Optional.of(instance.textValue())
                : Optional.empty()));
  }

  private static long epoch(JsonNode node) {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
      return 0;
    }
    long value = node.longValue();
    return value < 0 || value > MAX_EPOCH ? 0 : value;
  }

  static Optional<Instant> parseInstant(String text) {
    String s = text.trim().replace(' ', 'T');
    try {
      return Optional.of(OffsetDateTime.parse(s).toInstant());
    } catch (DateTimeParseException e) {
      try {
        return Optional.of(LocalDateTime.parse(s).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }
}
