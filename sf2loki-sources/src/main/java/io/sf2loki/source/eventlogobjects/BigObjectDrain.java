package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.EventTimes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * One newest-first drain of a big object down to the watermark. Pages ratchet down by timestamp
 * ({@code <=} the oldest time of the previous full page); a full page whose rows all share one time
 * is a tie group, exhausted with {@code tsf = t AND Id NOT IN (...)} inside an Id range. When the
 * {@code NOT IN} list would push the request URI toward Salesforce's ~16 KB limit, the range is
 * split at the median seen id and each half continues with only its own ids, so a tie group of any
 * size drains with bounded requests.
 *
 * <p>Memory is bounded by {@code max_catchup_records}: beyond it the newest collected rows are
 * evicted (the next cycle finds them again). Only a drain that reached the watermark yields rows,
 * so what is emitted is always a contiguous range from the stored watermark.
 */
final class BigObjectDrain {

  /** Encoded characters the NOT IN list may take (~450 ids); the URI stays well under 16 KB. */
  static final int NOT_IN_BUDGET = 12_000;

  /** How the drain ended. */
  sealed interface Result permits Complete, Stalled, Stopped {}

  /** Reached the watermark: the collected rows, ascending by (time, Id). */
  record Complete(List<ObjectNode> rows, boolean capped) implements Result {}

  /** No progress is possible; nothing may be emitted or committed. */
  record Stalled(String boundary, String why) implements Result {}

  /** A stop was requested mid-drain. */
  record Stopped() implements Result {}

  /** Runs one SOQL query and returns its records. */
  @FunctionalInterface
  interface Query {
    List<ObjectNode> run(String soql)
        throws SalesforceApiException, AuthException, InterruptedException;
  }

  private record Key(Instant time, String id) {}

  private static final Comparator<Key> ORDER =
      Comparator.comparing(Key::time).thenComparing(Key::id);

  private final ObjectQueries soql;
  private final String tsf;
  private final Query query;
  private final long cap;
  private final BooleanSupplier stop;
  private final Predicate<String> delivered;
  private final TreeMap<Key, ObjectNode> collected = new TreeMap<>(ORDER);
  private Instant watermark;
  private boolean capped;

  /**
   * @param delivered ids already in the cursor's window: never collected, so they do not count
   *     toward the cap (otherwise a large tie group at the watermark could fill it forever)
   */
  BigObjectDrain(
      ObjectQueries soql,
      String tsf,
      Query query,
      long cap,
      BooleanSupplier stop,
      Predicate<String> delivered) {
    this.soql = soql;
    this.delivered = delivered;
    this.tsf = tsf;
    this.query = query;
    this.cap = cap;
    this.stop = stop;
  }

  Result run(Instant watermark) throws SalesforceApiException, AuthException, InterruptedException {
    this.watermark = watermark;
    String bound = "";
    while (true) {
      if (stop.getAsBoolean()) {
        return new Stopped();
      }
      List<ObjectNode> page = query.run(soql.descending(watermark, bound));
      int added = collect(page);
      if (page.size() < ObjectQueries.PAGE) {
        return new Complete(new ArrayList<>(collected.values()), capped);
      }
      Instant oldest = timeOf(page.get(page.size() - 1));
      Instant newest = timeOf(page.get(0));
      if (oldest.equals(newest)) {
        Optional<Result> tie = drainTie(oldest, page);
        if (tie.isPresent()) {
          return tie.get();
        }
        bound = soql.below(oldest, false);
      } else if (added == 0) {
        return new Stalled(Soql.datetimeLiteral(oldest), "a full page brought no new row");
      } else {
        bound = soql.below(oldest, true);
      }
    }
  }

  /** An Id range of the tie group and the ids already seen in it. */
  private record Range(Optional<String> lo, Optional<String> hi, TreeSet<String> seen) {}

  private Optional<Result> drainTie(Instant t, List<ObjectNode> first)
      throws SalesforceApiException, AuthException, InterruptedException {
    TreeSet<String> seen = new TreeSet<>();
    first.forEach(r -> seen.add(r.path("Id").asText()));
    Deque<Range> ranges = new ArrayDeque<>();
    ranges.push(new Range(Optional.empty(), Optional.empty(), seen));
    while (!ranges.isEmpty()) {
      if (stop.getAsBoolean()) {
        return Optional.of(new Stopped());
      }
      Range r = ranges.peek();
      if (encodedLength(r.seen()) > NOT_IN_BUDGET) {
        ranges.pop();
        split(r).forEach(ranges::push);
        continue;
      }
      List<ObjectNode> page =
          query.run(soql.descending(watermark, soql.tie(t, r.lo(), r.hi(), r.seen())));
      collect(page);
      boolean progress = false;
      for (ObjectNode row : page) {
        progress |= r.seen().add(row.path("Id").asText());
      }
      if (page.size() < ObjectQueries.PAGE) {
        ranges.pop();
      } else if (!progress) {
        return Optional.of(
            new Stalled(Soql.datetimeLiteral(t), "a full tie page brought no new id"));
      }
    }
    return Optional.empty();
  }

  /** Two halves at the median seen id: [lo, pivot) and [pivot, hi). */
  private static List<Range> split(Range r) {
    List<String> ids = new ArrayList<>(r.seen());
    String pivot = ids.get(ids.size() / 2);
    Range lower =
        new Range(r.lo(), Optional.of(pivot), new TreeSet<>(r.seen().headSet(pivot, false)));
    Range upper =
        new Range(Optional.of(pivot), r.hi(), new TreeSet<>(r.seen().tailSet(pivot, true)));
    return List.of(upper, lower); // pushed in this order: the lower half runs first
  }

  private static int encodedLength(TreeSet<String> ids) {
    int n = 0;
    for (String id : ids) {
      n += URLEncoder.encode("'" + id + "', ", StandardCharsets.UTF_8).length();
    }
    return n;
  }

  private int collect(List<ObjectNode> page) {
    int added = 0;
    for (ObjectNode row : page) {
      String id = row.path("Id").asText();
      if (delivered.test(id)) {
        continue;
      }
      Key key = new Key(timeOf(row), id);
      if (collected.put(key, row) == null) {
        added++;
      }
      if (cap > 0 && collected.size() > cap) {
        collected.pollLastEntry(); // evict the newest: a later cycle finds it again
        capped = true;
      }
    }
    return added;
  }

  private Instant timeOf(ObjectNode row) {
    return EventTimes.parse(row.path(tsf).asText()).orElse(watermark);
  }
}
