// A copy of sf2loki-loki's io.sf2loki.bench.BenchEntries (test code, not shared between modules),
// so that OtlpEncodeBenchmark encodes exactly the records LokiEncodeBenchmark does.
package io.sf2loki.bench;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Realistic benchmark entries: canonical-JSON lines of {@value #LINE_BYTES} bytes shaped like
 * EventLogFile rows (sorted keys, ids, numbers, a free-text field of dictionary words so snappy and
 * gzip see text-like redundancy, not a run of one byte), spread over {@value #STREAMS} streams,
 * each with two structured-metadata pairs. Deterministic: entry {@code i} is always the same.
 */
public final class BenchEntries {

  /** Bytes per line (ASCII, so also chars). */
  public static final int LINE_BYTES = 1024;

  /** Number of distinct label sets. */
  public static final int STREAMS = 4;

  /** A base timestamp one minute ago, so the fake Loki's sample-age rules pass. */
  public static final long T0 = Instant.now().minusSeconds(60).getEpochSecond() * 1_000_000_000L;

  private static final String[] TYPES = {"Login", "API", "Report", "URI"};
  private static final String[] WORDS = {
    "account",
    "opportunity",
    "lead",
    "contact",
    "report",
    "dashboard",
    "query",
    "apex",
    "trigger",
    "batch",
    "session",
    "login",
    "success",
    "failed",
    "timeout",
    "export",
    "import",
    "record",
    "update",
    "insert",
    "delete",
    "view",
    "list",
    "search",
    "flow",
    "user",
    "profile",
    "permission"
  };

  /** Distinct lines; entry {@code i} uses line {@code i % POOL}, so generating is not measured. */
  static final int POOL = 4096;

  private final List<StringMap> labels = new ArrayList<>();
  private final String[] lines = new String[POOL];
  private final List<Map<String, String>> metadata = new ArrayList<>(POOL);

  private final boolean freshLines;

  /** Entries over one stream per event type, lines shared from the pool. */
  public BenchEntries() {
    this(false);
  }

  /**
   * @param freshLines give every entry its own copy of its line, as a real source does (heap
   *     experiments: the queue's byte budget then matches what the heap really holds)
   */
  public BenchEntries(boolean freshLines) {
    this.freshLines = freshLines;
    for (String type : TYPES) {
      // One shared label set per stream, as the sources build them (Shaper interns them).
      labels.add(StringMap.of("job", "sf2loki", "source", "eventlogfile", "event_type", type));
    }
    for (int i = 0; i < POOL; i++) {
      lines[i] = line(i, TYPES[i % STREAMS]);
      metadata.add(Map.of("request_id", requestId(i), "user_id", "005D0000001" + (i % 977)));
    }
  }

  /**
   * Entry {@code i} (may be negative): stream {@code i mod STREAMS}, timestamp {@code T0 + i} µs
   * (so no two entries of a stream are identical), a fresh {@link LogEntry} as a source would build
   * it: the stream's shared label set, the pooled line (or a fresh copy of it), a copy of the
   * pooled metadata map into the entry's own sorted map, and a new checkpoint token.
   */
  public LogEntry entry(long i) {
    int stream = Math.floorMod(i, STREAMS);
    int slot = Math.floorMod(i, POOL);
    return LogEntry.of(
        T0 + i * 1000,
        labels.get(stream),
        freshLines ? new String(lines[slot].toCharArray()) : lines[slot],
        metadata.get(slot),
        Optional.of(new CheckpointToken("bench/" + TYPES[stream], Long.toString(i))));
  }

  /** Entries {@code 0..n-1}. */
  public List<LogEntry> entries(int n) {
    List<LogEntry> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(entry(i));
    }
    return out;
  }

  private static String requestId(long i) {
    return "4" + Long.toString(0x1000_0000_0000L + i * 7919, 36);
  }

  /** A canonical-JSON line of exactly {@link #LINE_BYTES} bytes. */
  static String line(long i, String type) {
    SplittableRandom r = new SplittableRandom(i);
    StringBuilder sb = new StringBuilder(LINE_BYTES + 32);
    sb.append("{\"CPU_TIME\":\"").append(r.nextInt(5000)).append('"');
    sb.append(",\"EVENT_TYPE\":\"").append(type).append('"');
    sb.append(",\"ORGANIZATION_ID\":\"00D000000000001AAA\"");
    sb.append(",\"REQUEST_ID\":\"").append(requestId(i)).append('"');
    sb.append(",\"REQUEST_STATUS\":\"").append(r.nextInt(10) == 0 ? "F" : "S").append('"');
    sb.append(",\"RUN_TIME\":\"").append(r.nextInt(20_000)).append('"');
    sb.append(",\"SESSION_KEY\":\"").append(Long.toString(r.nextLong() >>> 1, 36)).append('"');
    sb.append(",\"TIMESTAMP_DERIVED\":\"2026-01-0").append(1 + i % 9).append("T12:00:00.000Z\"");
    sb.append(",\"URI\":\"/apex/").append(WORDS[r.nextInt(WORDS.length)]).append('"');
    sb.append(",\"USER_ID\":\"005D0000001").append(i % 977).append('"');
    sb.append(",\"USER_TEXT\":\""); // the last key in code-point order
    int end = LINE_BYTES - 2; // room for the closing quote and brace
    while (sb.length() < end) {
      sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    }
    sb.setLength(end);
    return sb.append("\"}").toString();
  }
}
