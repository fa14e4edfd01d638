package io.sf2loki.loki;

import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the time-rule rejections out of a Loki 400 body. Loki answers them as text (loki-push.md
 * §6.2): the distributor with one line per entry ({@code entry for stream '{..}' has timestamp too
 * new: ..} / {@code .. too old: .., oldest acceptable timestamp is: ..}), the ingester with a block
 * per stream ({@code entry with timestamp .. ignored, reason: 'entry too far behind, entry
 * timestamp is: .., oldest acceptable timestamp is: ..',} lines, then {@code user '..', total
 * ignored: N out of M for stream: {..}}). The ingester's "oldest acceptable timestamp" is the
 * stream's newest minus Loki's window, which tells exactly where a stream stands after a restart.
 * Anything unreadable is simply not learned from: the caller then bisects as for any 400.
 */
final class LokiRejections {

  /**
   * What one stream's block said.
   *
   * @param stream the stream's label set
   * @param oldestAcceptable the newest "oldest acceptable timestamp" given for it
   */
  record TooFarBehind(StringMap stream, Instant oldestAcceptable) {}

  private static final Pattern CUTOFF =
      Pattern.compile("too far behind.*?oldest acceptable timestamp is: ([0-9T:.+\\-Z]+)");
  private static final Pattern BLOCK_STREAM =
      Pattern.compile("(?:total ignored: \\d+ out of \\d+ for stream|' for stream): (\\{.*\\})");

  private LokiRejections() {}

  /**
   * The time rule a 400 body names, if it names one (the first when it names several). A tenant
   * with {@code unordered_writes: false} answers "entry out of order" for any entry older than its
   * stream's newest: the same rule with a window of zero.
   */
  static Optional<Reason> reason(String body) {
    int behind = first(body, "too far behind", "too_far_behind", "entry out of order");
    int future = first(body, "has timestamp too new", "too_far_in_future");
    int old = first(body, "has timestamp too old", "greater_than_max_sample_age");
    int min = Math.min(behind, Math.min(future, old));
    if (min == Integer.MAX_VALUE) {
      return Optional.empty();
    }
    return Optional.of(
        min == behind
            ? Reason.TOO_FAR_BEHIND
            : min == future ? Reason.TOO_FAR_IN_FUTURE : Reason.TOO_OLD);
  }

  /** Where the earliest of {@code needles} occurs in {@code body}; MAX_VALUE when none does. */
  private static int first(String body, String... needles) {
    int min = Integer.MAX_VALUE;
    for (String n : needles) {
      int i = body.indexOf(n);
      if (i >= 0 && i < min) {
        min = i;
      }
    }
    return min;
  }

  /** Every too-far-behind block of {@code body} with a readable stream and cutoff. */
  static List<TooFarBehind> tooFarBehind(String body) {
    List<TooFarBehind> out = new ArrayList<>();
    Instant cutoff = null;
    for (String line : body.split("\n")) {
      Matcher c = CUTOFF.matcher(line);
      if (c.find()) {
        Instant t = instant(c.group(1));
        if (t != null && (cutoff == null || t.isAfter(cutoff))) {
          cutoff = t;
        }
      }
      Matcher s = BLOCK_STREAM.matcher(line);
      if (s.find()) {
        Optional<StringMap> stream = labels(s.group(1));
        if (cutoff != null && stream.isPresent()) {
          out.add(new TooFarBehind(stream.get(), cutoff));
        }
        if (line.contains("total ignored")) {
          cutoff = null; // the next block is another stream's
        }
      }
    }
    return out;
  }

  private static Instant instant(String rfc3339) {
    try {
      return OffsetDateTime.parse(rfc3339).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * Parses a Prometheus label string ({@code {a="b", c="d"}}, Go-quoted values, names quoted when
   * they are not plain identifiers) as Loki prints a stream, without the {@code __stream_shard__}
   * label Loki adds when it shards a busy stream (sf2loki's own label set is the one before it).
   */
  static Optional<StringMap> labels(String text) {
    Optional<StringMap> parsed = parse(text);
    if (parsed.isPresent() && parsed.get().containsKey(STREAM_SHARD)) {
      Map<String, String> m = new TreeMap<>(parsed.get());
      m.remove(STREAM_SHARD);
      return Optional.of(StringMap.of(m));
    }
    return parsed;
  }

  private static final String STREAM_SHARD = "__stream_shard__";

  private static Optional<StringMap> parse(String text) {
    Map<String, String> out = new TreeMap<>();
    int i = 0;
    int n = text.length();
    if (n < 2 || text.charAt(0) != '{') {
      return Optional.empty();
    }
    i = 1;
    while (i < n && text.charAt(i) != '}') {
      while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == ',')) {
        i++;
      }
      int eq = text.indexOf('=', i);
      if (eq < 0 || eq + 1 >= n || text.charAt(eq + 1) != '"') {
        return Optional.empty();
      }
      String name = text.substring(i, eq).trim();
      if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
        name = name.substring(1, name.length() - 1);
      }
      StringBuilder value = new StringBuilder();
      i = eq + 2;
      boolean closed = false;
      while (i < n) {
        char ch = text.charAt(i++);
        if (ch == '"') {
          closed = true;
          break;
        }
        if (ch != '\\' || i >= n) {
          value.append(ch);
          continue;
        }
        char esc = text.charAt(i++);
        switch (esc) {
          case 'n' -> value.append('\n');
          case 't' -> value.append('\t');
          case 'r' -> value.append('\r');
          case 'a' -> value.append('\u0007');
          case 'b' -> value.append('\b');
          case 'f' -> value.append('\f');
          case 'v' -> value.append('\u000b');
          case 'x' -> i = hex(text, i, 2, value);
          case 'u' -> i = hex(text, i, 4, value);
          case 'U' -> i = hex(text, i, 8, value);
          default -> value.append(esc);
        }
        if (i < 0) {
          return Optional.empty();
        }
      }
      if (!closed || name.isEmpty()) {
        return Optional.empty();
      }
      out.put(name, value.toString());
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
    }
    return i < n ? Optional.of(StringMap.of(out)) : Optional.empty();
  }

  private static int hex(String text, int at, int digits, StringBuilder value) {
    if (at + digits > text.length()) {
      return -1;
    }
    try {
      value.appendCodePoint(Integer.parseInt(text.substring(at, at + digits), 16));
      return at + digits;
    } catch (IllegalArgumentException e) { // not hex, or not a code point
      return -1;
    }
  }
}
