package io.sf2loki.testkit.loki;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads Loki's {@code logproto.PushRequest} from its protobuf wire bytes (push.proto: streams = 1;
 * stream labels = 1, entries = 2; entry timestamp = 1, line = 2, structured metadata = 3; pair name
 * = 1, value = 2; timestamp seconds = 1, nanos = 2), skipping unknown fields, rejecting malformed
 * input and strings that are not valid UTF-8 — what the generated classes do, without building a
 * message object per entry. Lines are not decoded: each {@link DecodedEntry} points into {@code
 * body}. One reader per body.
 */
final class ProtobufPushReader {

  /** The bytes are not a well-formed push request. */
  static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedException(String message) {
      super(message);
    }
  }

  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LEN = 2;
  private static final int FIXED32 = 5;

  private final byte[] body;
  private int pos;
  private final List<byte[]> nameBytes = new ArrayList<>(); // interned metadata names
  private final List<String> names = new ArrayList<>();

  ProtobufPushReader(byte[] body) {
    this.body = body;
  }

  /** Each stream's selector (unparsed) and entries, in wire order. */
  record RawStream(String labels, List<DecodedEntry> entries) {}

  List<RawStream> read() throws MalformedException {
    List<RawStream> streams = new ArrayList<>();
    int end = body.length;
    while (pos < end) {
      int tag = varint32();
      if (tag >>> 3 == 1 && (tag & 7) == LEN) {
        streams.add(stream(length()));
      } else {
        skip(tag);
      }
    }
    return streams;
  }

  private RawStream stream(int end) throws MalformedException {
    String labels = "";
    List<DecodedEntry> entries = new ArrayList<>();
    while (pos < end) {
      int tag = varint32();
      if (tag == (1 << 3 | LEN)) {
        labels = string(length());
      } else if (tag == (2 << 3 | LEN)) {
        entries.add(entry(length()));
      } else {
        skip(tag);
      }
    }
    expectAt(end);
    return new RawStream(labels, entries);
  }

  private DecodedEntry entry(int end) throws MalformedException {
    long seconds = 0;
    long nanos = 0;
    int lineAt = 0;
    int lineLength = 0;
    String[] pairs = new String[4];
    int p = 0;
    while (pos < end) {
      int tag = varint32();
      if (tag == (1 << 3 | LEN)) { // a repeated message field merges: later subfields win
        int tsEnd = length();
        while (pos < tsEnd) {
          int t = varint32();
          if (t == (1 << 3 | VARINT)) {
            seconds = varint64();
          } else if (t == (2 << 3 | VARINT)) {
            nanos = (int) varint64();
          } else {
            skip(t);
          }
        }
        expectAt(tsEnd);
      } else if (tag == (2 << 3 | LEN)) {
        lineLength = length() - pos;
        lineAt = pos;
        validUtf8(lineAt, lineLength);
        pos += lineLength;
      } else if (tag == (3 << 3 | LEN)) {
        if (p == pairs.length) {
          pairs = Arrays.copyOf(pairs, p * 2);
        }
        pair(length(), pairs, p);
        p += 2;
      } else {
        skip(tag);
      }
    }
    expectAt(end);
    return new DecodedEntry(
        seconds * 1_000_000_000L + nanos, body, lineAt, lineLength, SortedPairs.sorted(pairs, p));
  }

  private void pair(int end, String[] out, int at) throws MalformedException {
    String name = "";
    String value = "";
    while (pos < end) {
      int tag = varint32();
      if (tag == (1 << 3 | LEN)) {
        name = name(length());
      } else if (tag == (2 << 3 | LEN)) {
        value = string(length());
      } else {
        skip(tag);
      }
    }
    expectAt(end);
    out[at] = name;
    out[at + 1] = value;
  }

  /** A metadata name: the few distinct names of a body are decoded once each. */
  private String name(int end) throws MalformedException {
    int start = pos;
    for (int i = 0; i < nameBytes.size(); i++) {
      byte[] b = nameBytes.get(i);
      if (Arrays.equals(b, 0, b.length, body, start, end)) {
        pos = end;
        return names.get(i);
      }
    }
    String s = string(end);
    if (nameBytes.size() < 64) {
      nameBytes.add(Arrays.copyOfRange(body, start, end));
      names.add(s);
    }
    return s;
  }

  private String string(int end) throws MalformedException {
    int start = pos;
    validUtf8(start, end - start);
    pos = end;
    return new String(body, start, end - start, StandardCharsets.UTF_8);
  }

  private void validUtf8(int offset, int length) throws MalformedException {
    if (!Utf8Check.isValid(body, offset, length)) {
      throw new MalformedException("string field at byte " + offset + " is not valid UTF-8");
    }
  }

  /** Reads a length prefix and returns the end offset of the field it announces. */
  private int length() throws MalformedException {
    int n = varint32();
    if (n < 0 || n > body.length - pos) {
      throw new MalformedException("truncated field of " + n + " bytes at byte " + pos);
    }
    return pos + n;
  }

  private void expectAt(int end) throws MalformedException {
    if (pos != end) {
      throw new MalformedException("field overruns its message at byte " + pos);
    }
  }

  private void skip(int tag) throws MalformedException {
    switch (tag & 7) {
      case VARINT -> varint64();
      case FIXED64 -> advance(8);
      case LEN -> pos = length();
      case FIXED32 -> advance(4);
      default -> throw new MalformedException("unsupported wire type " + (tag & 7));
    }
    if (tag >>> 3 == 0) {
      throw new MalformedException("field number 0 at byte " + pos);
    }
  }

  private void advance(int n) throws MalformedException {
    if (body.length - pos < n) {
      throw new MalformedException("truncated at byte " + pos);
    }
    pos += n;
  }

  private int varint32() throws MalformedException {
    return (int) varint64();
  }

  private long varint64() throws MalformedException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= body.length) {
        throw new MalformedException("truncated varint at byte " + pos);
      }
      byte b = body[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new MalformedException("malformed varint at byte " + pos);
  }
}
