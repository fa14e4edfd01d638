package io.sf2loki.testkit.loki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.xerial.snappy.Snappy;

/**
 * Decodes push bodies the way Loki's distributor does, selected by {@code Content-Type} and {@code
 * Content-Encoding}. Written independently of sf2loki's encoder so that tests check the wire
 * format, not our own round trip. Protobuf bodies are read by {@link ProtobufPushReader}, which its
 * tests hold to the generated {@code logproto} classes' parse of the same bytes.
 */
public final class PushDecoder {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The body could not be decoded; the fake answers 400 with this message. */
  public static final class DecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    DecodeException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final int maxDecodedBytes;

  /**
   * @param maxDecodedBytes decompressed bodies above this raise {@link BodyTooLargeException}
   */
  public PushDecoder(int maxDecodedBytes) {
    this.maxDecodedBytes = maxDecodedBytes;
  }

  /** The decompressed body exceeds the request cap; the fake answers 413. */
  public static final class BodyTooLargeException extends Exception {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException(String message) {
      super(message);
    }
  }

  /** Decodes one push body. */
  public List<DecodedStream> decode(String contentType, String contentEncoding, byte[] body)
      throws DecodeException, BodyTooLargeException {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    String encoding = contentEncoding == null ? "" : contentEncoding.toLowerCase(Locale.ROOT);
    if (type.startsWith("application/x-protobuf")) {
      return decodeProtobuf(body);
    }
    if (type.startsWith("application/json")) {
      byte[] raw = encoding.equals("gzip") ? gunzip(body) : body;
      checkSize(raw.length);
      return decodeJson(raw);
    }
    throw new DecodeException("unsupported Content-Type '" + contentType + "'", null);
  }

  private void checkSize(long size) throws BodyTooLargeException {
    if (size > maxDecodedBytes) {
      throw new BodyTooLargeException(
          "request body of " + size + " bytes exceeds the limit of " + maxDecodedBytes);
    }
  }

  private List<DecodedStream> decodeProtobuf(byte[] body)
      throws DecodeException, BodyTooLargeException {
    List<ProtobufPushReader.RawStream> raw;
    try {
      // Loki reads protobuf bodies as snappy *block* format, never the framed stream format.
      checkSize(Snappy.uncompressedLength(body));
      raw = new ProtobufPushReader(Snappy.uncompress(body)).read();
    } catch (IOException | ProtobufPushReader.MalformedException e) {
      throw new DecodeException("cannot decode snappy/protobuf body: " + e.getMessage(), e);
    }
    List<DecodedStream> streams = new ArrayList<>(raw.size());
    for (ProtobufPushReader.RawStream stream : raw) {
      try {
        streams.add(new DecodedStream(LabelSelector.parse(stream.labels()), stream.entries()));
      } catch (IllegalArgumentException e) {
        throw new DecodeException("invalid_labels: " + e.getMessage(), e);
      }
    }
    return streams;
  }

  private static List<DecodedStream> decodeJson(byte[] body) throws DecodeException {
    try {
      JsonNode root = JSON.readTree(body);
      JsonNode streamsNode = root == null ? null : root.get("streams");
      if (streamsNode == null || !streamsNode.isArray()) {
        throw new DecodeException("JSON body has no \"streams\" array", null);
      }
      List<DecodedStream> streams = new ArrayList<>();
      for (JsonNode s : streamsNode) {
        streams.add(new DecodedStream(stringMap(s.get("stream")), jsonEntries(s.get("values"))));
      }
      return streams;
    } catch (IOException | RuntimeException e) {
      throw new DecodeException("cannot decode JSON body: " + e.getMessage(), e);
    }
  }

  private static List<DecodedEntry> jsonEntries(JsonNode values) throws DecodeException {
    if (values == null || !values.isArray()) {
      throw new DecodeException("stream has no \"values\" array", null);
    }
    List<DecodedEntry> entries = new ArrayList<>();
    for (JsonNode v : values) {
      if (!v.isArray() || v.size() < 2 || v.size() > 3 || !v.get(0).isTextual()) {
        throw new DecodeException("malformed value " + v, null);
      }
      long nanos = new BigInteger(v.get(0).asText()).longValueExact();
      Map<String, String> sm = v.size() == 3 ? stringMap(v.get(2)) : Map.of();
      entries.add(new DecodedEntry(nanos, v.get(1).asText(), sm));
    }
    return entries;
  }

  private static Map<String, String> stringMap(JsonNode node) throws DecodeException {
    if (node == null || !node.isObject()) {
      throw new DecodeException("expected an object of strings, got " + node, null);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (!e.getValue().isTextual()) {
        throw new DecodeException("value of '" + e.getKey() + "' is not a string", null);
      }
      map.put(e.getKey(), e.getValue().asText());
    }
    return map;
  }

  private byte[] gunzip(byte[] body) throws DecodeException, BodyTooLargeException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      byte[] out = in.readNBytes(maxDecodedBytes + 1);
      checkSize(out.length);
      return out;
    } catch (IOException e) {
      throw new DecodeException("cannot gunzip body: " + e.getMessage(), e);
    }
  }
}
