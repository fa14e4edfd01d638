package io.sf2loki.testkit.loki;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One push request as received, with what the fake answered.
 *
 * @param headers request headers, names lower-case, first value of each
 * @param bodyBytes the wire body size (compressed)
 * @param streams the decoded streams; empty when the body was not decoded (fault, decode error) or
 *     the fake records {@link FakeLoki.PushRecording#HEADERS_ONLY headers only}
 * @param status the status answered; 0 when the connection was dropped
 */
public record RecordedPush(
    Map<String, String> headers, int bodyBytes, List<DecodedStream> streams, int status) {

  public RecordedPush {
    headers = Map.copyOf(headers);
    streams = List.copyOf(streams);
  }

  /** A header by lower-case name. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT)));
  }

  /** Number of entries in the request (0 when its streams were not recorded). */
  public int entryCount() {
    return streams.stream().mapToInt(s -> s.entries().size()).sum();
  }
}
