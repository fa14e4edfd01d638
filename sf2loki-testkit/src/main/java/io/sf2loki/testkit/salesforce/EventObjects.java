package io.sf2loki.testkit.salesforce;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake's queryable event objects ({@code LoginEvent}, {@code SetupAuditTrail}, custom objects):
 * records with a timestamp field, each visible from a moment on the fake's clock (so tests can make
 * a row appear late, behind a watermark), and big objects that only allow newest-first order.
 * Thread-safe.
 */
public final class EventObjects {

  /**
   * One stored record.
   *
   * @param object the sObject name
   * @param id the 18-character record id; ids sort in creation order
   * @param timestamp the value of the object's timestamp field
   * @param visibleAt when queries start returning it (fake clock)
   * @param fields the other fields, in order
   */
  public record Row(
      String object, String id, Instant timestamp, Instant visibleAt, Map<String, Object> fields) {
    public Row {
      fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
  }

  /** An object's schema: its timestamp field and whether it is a big object. */
  record Definition(String timestampField, boolean bigObject) {}

  private final FakeSalesforce fake;
  private final Map<String, Definition> definitions = new ConcurrentHashMap<>();
  private final Map<String, List<Row>> rows = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  EventObjects(FakeSalesforce fake) {
    this.fake = fake;
  }

  /**
   * Declares {@code object}, queried by {@code timestampField}; big objects reject ascending order.
   */
  public void define(String object, String timestampField, boolean bigObject) {
    definitions.put(object, new Definition(timestampField, bigObject));
    rows.computeIfAbsent(object, o -> new CopyOnWriteArrayList<>());
  }

  /** Adds a record visible at once; returns its id. */
  public String add(String object, Instant timestamp) {
    return add(object, timestamp, Instant.MIN, Map.of());
  }

  /**
   * Adds a record that becomes queryable at {@code visibleAt} on the fake's clock, with extra
   * fields; returns its id.
   */
  public String add(
      String object, Instant timestamp, Instant visibleAt, Map<String, Object> extra) {
    Definition d = definition(object);
    String id = String.format("0Yw%012dAAA", ids.incrementAndGet());
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(d.timestampField(), Json.sfDate(timestamp));
    fields.put("UserId", "005000000000001AAA");
    fields.put("Username", "user" + (ids.get() % 7) + "@example.com");
    fields.put("SourceIp", "203.0.113." + (ids.get() % 250));
    fields.put("Status", ids.get() % 5 == 0 ? "Failed" : "Success");
    fields.putAll(extra);
    rows.get(object).add(new Row(object, id, timestamp, visibleAt, fields));
    return id;
  }

  /** Adds {@code n} records sharing one timestamp; returns their ids in creation order. */
  public List<String> addTieGroup(String object, Instant timestamp, int n) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(add(object, timestamp));
    }
    return out;
  }

  /** Every record of {@code object}, visible or not, ordered by (timestamp, id). */
  public List<Row> rows(String object) {
    List<Row> out = new ArrayList<>(rows.getOrDefault(object, List.of()));
    out.sort(Comparator.comparing(Row::timestamp).thenComparing(Row::id));
    return out;
  }

  Definition definition(String object) {
    return Objects.requireNonNull(definitions.get(object), () -> "object not defined: " + object);
  }

  boolean isDefined(String object) {
    return definitions.containsKey(object);
  }

  /** Records visible now on the fake's clock. */
  List<Row> visible(String object) {
    Instant now = fake.serverNow();
    return rows(object).stream().filter(r -> !r.visibleAt().isAfter(now)).toList();
  }

  String apiVersion() {
    return fake.settings().apiVersion();
  }
}
