package io.sf2loki.state.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.spi.CorruptStateException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The checkpoint document codec, compatible with the Python sf2loki: one flat JSON object of string
 * to string. Writes a single line with {@code ", "} / {@code ": "} separators, non-ASCII escaped
 * and keys in insertion order; reads any valid UTF-8 JSON object of strings.
 */
public final class StateDocument {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private StateDocument() {}

  /**
   * Parses a stored document.
   *
   * @param bytes the stored bytes
   * @param location the file path or object URL, for the message
   * @param recovery what the operator should do, appended to the message
   * @throws CorruptStateException the bytes are not a UTF-8 JSON object of strings
   */
  public static Map<String, String> parse(byte[] bytes, String location, String recovery) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw corrupt(location, "it is not valid UTF-8", recovery);
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " at offset " + e.getLocation().getCharOffset();
      throw corrupt(location, "it is not valid JSON" + where + " (truncated?)", recovery);
    }
    if (root == null || !root.isObject()) {
      String kind =
          root == null ? "empty" : root.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
      throw corrupt(location, "its top level is " + kind + ", not a JSON object", recovery);
    }
    Map<String, String> doc = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : root.properties()) {
      if (!field.getValue().isTextual()) {
        throw corrupt(
            location, "the value of key '" + field.getKey() + "' is not a string", recovery);
      }
      doc.put(field.getKey(), field.getValue().textValue());
    }
    return doc;
  }

  /**
   * The epoch in {@value CheckpointToken#RESERVED_EPOCH_KEY}, empty when the key is absent.
   *
   * @throws CorruptStateException the key holds something other than a non-negative integer
   */
  public static OptionalLong epoch(Map<String, String> doc, String location) {
    String raw = doc.get(CheckpointToken.RESERVED_EPOCH_KEY);
    if (raw == null) {
      return OptionalLong.empty();
    }
    try {
      long value = Long.parseLong(raw.trim());
      if (value >= 0) {
        return OptionalLong.of(value);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CorruptStateException(
        location
            + ": "
            + CheckpointToken.RESERVED_EPOCH_KEY
            + " holds '"
            + abbreviate(raw)
            + "', not a non-negative integer; stop every sf2loki replica and repair it with"
            + " `sf2loki-cli state set --force "
            + CheckpointToken.RESERVED_EPOCH_KEY
            + " <N>` (N = the current lease epoch or higher)");
  }

  /** Serialises a document the way the Python sf2loki writes it. */
  public static byte[] serialize(Map<String, String> doc) {
    StringBuilder out = new StringBuilder(64 + doc.size() * 64);
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : doc.entrySet()) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      CanonicalJson.appendQuoted(out, e.getKey());
      out.append(": ");
      CanonicalJson.appendQuoted(out, e.getValue());
    }
    out.append('}');
    return out.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static CorruptStateException corrupt(String location, String why, String recovery) {
    return new CorruptStateException(
        "checkpoint document " + location + " is corrupt: " + why + ". " + recovery);
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
