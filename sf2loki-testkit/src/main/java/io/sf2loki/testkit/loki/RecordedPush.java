package io.sf2loki.testkit.loki;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One push request as received, with what the fake answered.
 *
 * @param headers request headers, names lower-case, first value of each
 * @param bodyBytes the wire body size (compressed); 0 when the connection was dropped mid-body
 * @param streams the decoded streams; empty when the body was not decoded (fault, decode error) or
 *     the fake records {@link FakeLoki.PushRecording#HEADERS_ONLY headers only}
 * @param status the status answered; empty when the connection was dropped without an answer
 */
public record RecordedPush(
    Map<String, String> headers, int bodyBytes, List<DecodedStream> streams, OptionalInt status) {

  public RecordedPush {
    headers = Map.copyOf(headers);
    streams = List.copyOf(streams);
    Objects.requireNonNull(status, "status");
  }

  /** A push that was answered with {@code status}. */
  public RecordedPush(
      Map<String, String> headers, int bodyBytes, List<DecodedStream> streams, int status) {
    this(headers, bodyBytes, streams, OptionalInt.of(status));
  }

  /** A header by lower-case name. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Number of entries in the request (0 when its streams were not recorded). */
  public int entryCount() {
    return streams.stream().mapToInt(s -> s.entries().size()).sum();
  }
}
