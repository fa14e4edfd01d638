package io.sf2loki.testkit.loki;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One entry as it arrived on the wire: timestamp, line and structured metadata (sorted by name).
 *
 * <p>A value with record semantics ({@code equals}, {@code hashCode} and {@code toString} over the
 * three components). It is a class so that an entry decoded from protobuf can keep its line as the
 * UTF-8 bytes it arrived as, a slice of a shared array, instead of a {@code String}: the fake
 * stores millions of entries, and the bytes are only turned into a {@code String} when {@link
 * #line()} is called. Immutable.
 */
public final class DecodedEntry {

  private final long timestampNanos;
  private final String line; // null when it arrived as UTF-8 only: decoded on demand
  // The line's UTF-8 bytes: utf8[offset, offset + length).
  private final byte[] utf8;
  private final int offset;
  private final int length;
  private final Map<String, String> metadata;

  /**
   * @param timestampNanos nanoseconds since the Unix epoch
   * @param line the log line
   * @param metadata structured metadata
   */
  public DecodedEntry(long timestampNanos, String line, Map<String, String> metadata) {
    this.timestampNanos = timestampNanos;
    this.line = Objects.requireNonNull(line, "line");
    this.utf8 = line.getBytes(StandardCharsets.UTF_8);
    this.offset = 0;
    this.length = utf8.length;
    this.metadata = SortedPairs.copyOf(metadata);
  }

  /** An entry whose line is {@code utf8[offset, offset + length)}, valid UTF-8, not copied. */
  DecodedEntry(
      long timestampNanos, byte[] utf8, int offset, int length, Map<String, String> metadata) {
    this.timestampNanos = timestampNanos;
    this.line = null;
    this.utf8 = utf8;
    this.offset = offset;
    this.length = length;
    this.metadata = SortedPairs.copyOf(metadata);
  }

  /** Nanoseconds since the Unix epoch. */
  public long timestampNanos() {
    return timestampNanos;
  }

  /**
   * The log line (decoded from its UTF-8 bytes on each call when it arrived as protobuf or was
   * stored).
   */
  public String line() {
    return line != null ? line : new String(utf8, offset, length, StandardCharsets.UTF_8);
  }

  /** Structured metadata, sorted by name, immutable. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The line's UTF-8 byte length. */
  int lineUtf8Length() {
    return length;
  }

  /** The array holding the line's UTF-8 bytes, from {@link #lineOffset()}; do not modify. */
  byte[] lineArray() {
    return utf8;
  }

  /** Where the line's UTF-8 bytes start in {@link #lineArray()}. */
  int lineOffset() {
    return offset;
  }

  /** True when this entry's line equals {@code other}'s. */
  boolean sameLine(DecodedEntry other) {
    return Arrays.equals(
        utf8, offset, offset + length, other.utf8, other.offset, other.offset + other.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecodedEntry other
        && timestampNanos == other.timestampNanos
        && sameLine(other)
        && metadata.equals(other.metadata);
  }

  @Override
  public int hashCode() {
    // Over the line's bytes, as equals compares them: a string line holding a lone surrogate
    // encodes as '?', so hashing the string could split two equal entries.
    int lineHash = 1;
    for (int i = offset; i < offset + length; i++) {
      lineHash = 31 * lineHash + utf8[i];
    }
    return Objects.hash(timestampNanos, lineHash, metadata);
  }

  @Override
  public String toString() {
    return "DecodedEntry[timestampNanos="
        + timestampNanos
        + ", line="
        + line()
        + ", metadata="
        + metadata
        + "]";
  }
}
