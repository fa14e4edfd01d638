package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake's Event Log Objects ({@code LoginEventLog}, {@code ApiTotalUsageEventLog}, ...): one row
 * per event, no {@code Id} field, a millisecond {@code Timestamp} that many rows may share, and a
 * per-row visibility lag of 0–45 minutes on the fake's clock (Salesforce documents 25–45 minutes;
 * the fake draws from 0 so that rows overtake each other, the case a cursor must survive). Queries
 * are answered under the documented rules by {@link EloQueries}; every refused query is counted in
 * {@link #refusals()}. Defined objects appear in {@code describeGlobal} as queryable and answer
 * {@code describe} with their fields. Thread-safe.
 */
public final class EventLogObjects {

  /** The documented worst-case delay between an event and its row becoming queryable. */
  public static final Duration MAX_LAG = Duration.ofMinutes(45);

  /** Fields every fake Event Log Object has, in order (PascalCase EventLogFile columns). */
  static final List<String> COMMON_FIELDS =
      List.of("Timestamp", "RequestIdentifier", "UserIdentifier", "SourceIp", "Status");

  /**
   * One stored row.
   *
   * @param object the object name
   * @param key a fake-only unique key (not a field: Event Log Objects have no {@code Id})
   * @param timestamp the {@code Timestamp} value
   * @param visibleAt when queries start returning it (fake clock)
   * @param fields every field, {@code Timestamp} first
   */
  public record Row(
      String object, long key, Instant timestamp, Instant visibleAt, Map<String, Object> fields) {
    public Row {
      fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
  }

  private final FakeSalesforce fake;
  private final Map<String, List<String>> definitions = new ConcurrentHashMap<>();
  private final Map<String, List<Row>> rows = new ConcurrentHashMap<>();
  // rows by (timestamp, key), rebuilt after an add: a query reads a range of it by binary search,
  // so a benchmark's million rows cost a query only the rows of its range
  private final Map<String, List<Row>> sorted = new ConcurrentHashMap<>();
  private final AtomicLong keys = new AtomicLong();
  private final AtomicLong refusals = new AtomicLong();
  private final List<String> refused = new CopyOnWriteArrayList<>();
  private final AtomicBoolean access = new AtomicBoolean(true);
  private final Random lag;

  EventLogObjects(FakeSalesforce fake, long seed) {
    this.fake = fake;
    this.lag = new Random(seed);
  }

  /**
   * Declares {@code object} (its name must end in {@code EventLog}) with the common fields and
   * {@code extraFields}; it is listed in {@code describeGlobal} from now on.
   */
  public void define(String object, String... extraFields) {
    if (!object.endsWith("EventLog")) {
      throw new IllegalArgumentException("an Event Log Object's name ends in EventLog: " + object);
    }
    List<String> fields = new ArrayList<>(COMMON_FIELDS);
    fields.addAll(List.of(extraFields));
    definitions.put(object, List.copyOf(fields));
    rows.computeIfAbsent(object, o -> new ArrayList<>());
    fake.addSObjects(object);
  }

  /**
   * Adds a row at {@code timestamp}, visible after a random lag of 0–45 minutes; returns it. Its
   * {@code RequestIdentifier} is unique unless {@code extra} sets one.
   */
  public Row add(String object, Instant timestamp, Map<String, Object> extra) {
    long millis;
    synchronized (lag) {
      millis = (long) (lag.nextDouble() * MAX_LAG.toMillis());
    }
    return add(object, timestamp, timestamp.plusMillis(millis), extra);
  }

  /** Adds a row that becomes queryable at {@code visibleAt} on the fake's clock; returns it. */
  public Row add(String object, Instant timestamp, Instant visibleAt, Map<String, Object> extra) {
    List<String> names = fields(object);
    long key = keys.incrementAndGet();
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Timestamp", Json.sfDate(timestamp));
    fields.put("RequestIdentifier", String.format("4kq%019d", key));
    fields.put("UserIdentifier", "005000000000001AAA");
    fields.put("SourceIp", "203.0.113." + (key % 250));
    fields.put("Status", key % 5 == 0 ? "Failed" : "Success");
    for (String extraField : names.subList(COMMON_FIELDS.size(), names.size())) {
      fields.put(extraField, extraField + "-" + key);
    }
    fields.putAll(extra);
    Row row = new Row(object, key, timestamp, visibleAt, fields);
    List<Row> list = rows.get(object);
    synchronized (list) {
      list.add(row);
      sorted.remove(object);
    }
    return row;
  }

  /**
   * Adds {@code n} rows sharing {@code timestamp} (one millisecond), each with its own random lag;
   * returns them in creation order.
   */
  public List<Row> addTie(String object, Instant timestamp, int n) {
    List<Row> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(add(object, timestamp, Map.of()));
    }
    return out;
  }

  /** Every row of {@code object}, visible or not, by (timestamp, creation). */
  public List<Row> rows(String object) {
    return new ArrayList<>(sortedRows(object));
  }

  private List<Row> sortedRows(String object) {
    List<Row> list = rows.getOrDefault(object, List.of());
    synchronized (list) {
      List<Row> cached = sorted.get(object);
      if (cached == null) {
        List<Row> out = new ArrayList<>(list);
        out.sort(Comparator.comparing(Row::timestamp).thenComparingLong(Row::key));
        cached = Collections.unmodifiableList(out);
        if (rows.containsKey(object)) {
          sorted.put(object, cached);
        }
      }
      return cached;
    }
  }

  /** Queries refused for breaking an Event Log Object rule (a correct client keeps this at 0). */
  public long refusals() {
    return refusals.get();
  }

  /** The SOQL texts of the refused queries, in arrival order. */
  public List<String> refusedQueries() {
    return List.copyOf(refused);
  }

  /**
   * Takes View Event Log Object Data away from the user: the objects stay listed, but describing or
   * querying one answers 403 {@code INSUFFICIENT_ACCESS}.
   */
  public void revokeAccess() {
    access.set(false);
  }

  boolean hasAccess() {
    return access.get();
  }

  boolean isDefined(String object) {
    return definitions.containsKey(object);
  }

  List<String> fields(String object) {
    return Objects.requireNonNull(
        definitions.get(object), () -> "Event Log Object not defined: " + object);
  }

  /** Rows visible now on the fake's clock. */
  List<Row> visible(String object) {
    return visible(object, Instant.MIN, Instant.MAX);
  }

  /** Rows visible now on the fake's clock with {@code lo <= Timestamp <= hi}. */
  List<Row> visible(String object, Instant lo, Instant hi) {
    Instant now = fake.serverNow();
    List<Row> all = sortedRows(object);
    int low = 0;
    int high = all.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (all.get(mid).timestamp().isBefore(lo)) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    List<Row> out = new ArrayList<>();
    for (int i = low; i < all.size() && !all.get(i).timestamp().isAfter(hi); i++) {
      if (!all.get(i).visibleAt().isAfter(now)) {
        out.add(all.get(i));
      }
    }
    return out;
  }

  Instant now() {
    return fake.serverNow();
  }

  String apiVersion() {
    return fake.settings().apiVersion();
  }

  void refused(String soql) {
    refusals.incrementAndGet();
    refused.add(soql);
  }

  /** The {@code describe} body: name, queryable, and each field with its SOAP type. */
  Map<String, Object> describe(String object) {
    List<Map<String, Object>> fields = new ArrayList<>();
    for (String f : fields(object)) {
      fields.add(Map.of("name", f, "type", f.equals("Timestamp") ? "datetime" : "string"));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", object);
    out.put("queryable", true);
    out.put("fields", fields);
    return out;
  }
}
