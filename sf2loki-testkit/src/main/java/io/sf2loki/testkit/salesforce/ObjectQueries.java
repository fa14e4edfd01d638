package io.sf2loki.testkit.salesforce;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The eventlog_objects SOQL shapes: {@code SELECT FIELDS(ALL) FROM {Obj} WHERE ... ORDER BY {tsf}
 * ASC, Id ASC LIMIT n} (the optional {@code (tsf > lit OR (tsf = lit AND Id > 'id'))} keyset first)
 * and the big-object drain {@code ... ORDER BY {tsf} DESC LIMIT n}, whose WHERE is a flat AND list
 * of {@code tsf op lit}, {@code Id op 'id'} and {@code Id NOT IN ('a', 'b')}; and the backfill
 * estimate's {@code SELECT COUNT() FROM {Obj} WHERE ...} with the ascending WHERE.
 *
 * <p>Salesforce's rules: {@code FIELDS(ALL)} allows at most {@code LIMIT 200}; a big object answers
 * ascending order with {@code BIG_OBJECT_UNSUPPORTED_OPERATION}, and {@code COUNT()} too (big
 * objects allow no aggregate function); a malformed literal is {@code MALFORMED_QUERY}.
 */
final class ObjectQueries {

  private static final String LIT = "(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)";
  private static final String ID = "'([A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?)'";
  static final Pattern SHAPE =
      Pattern.compile(
          "SELECT FIELDS\\(ALL\\) FROM ([A-Za-z0-9_]+) WHERE (.+) ORDER BY ([A-Za-z0-9_]+)"
              + " (ASC, Id ASC|DESC) LIMIT (\\d+)");

  /** The backfill estimate: {@code SELECT COUNT() FROM {Obj} WHERE ...}. */
  static final Pattern COUNT =
      Pattern.compile("SELECT COUNT\\(\\) FROM ([A-Za-z0-9_]+) WHERE (.+)");

  /** doctor's permission probe: {@code SELECT Id FROM {Obj} LIMIT n}. */
  static final Pattern PROBE = Pattern.compile("SELECT Id FROM ([A-Za-z0-9_]+) LIMIT (\\d+)");

  private static final Pattern KEYSET =
      Pattern.compile(
          "\\(([A-Za-z0-9_]+) > " + LIT + " OR \\(\\1 = \\2 AND Id > " + ID + "\\)\\)(.*)");
  private static final Pattern COMPARE =
      Pattern.compile("([A-Za-z0-9_]+) (>=|<=|<|>|=) (?:" + LIT + "|" + ID + ")");
  private static final Pattern NOT_IN = Pattern.compile("Id NOT IN \\(((?:" + ID + "(?:, )?)+)\\)");
  private static final Pattern ID_ITEM = Pattern.compile(ID);

  private final EventObjects objects;

  ObjectQueries(EventObjects objects) {
    this.objects = objects;
  }

  Optional<QueryAnswer> answer(String soql) {
    Matcher probe = PROBE.matcher(soql);
    if (probe.matches()) {
      String object = probe.group(1);
      if (!objects.isDefined(object)) {
        return Optional.of(
            QueryAnswer.error(
                400,
                "INVALID_TYPE",
                "sObject type '"
                    + object
                    + "' is not supported. If you are attempting to use a"
                    + " custom object, be sure to append the '__c' after the entity name."));
      }
      List<Map<String, Object>> one = new ArrayList<>();
      objects.visible(object).stream()
          .limit(Integer.parseInt(probe.group(2)))
          .forEach(r -> one.add(Map.of("Id", r.id())));
      return Optional.of(QueryAnswer.of(one));
    }
    Matcher count = COUNT.matcher(soql);
    if (count.matches() && objects.isDefined(count.group(1))) {
      return Optional.of(count(count.group(1), count.group(2)));
    }
    Matcher m = SHAPE.matcher(soql);
    if (!m.matches() || !objects.isDefined(m.group(1))) {
      return Optional.empty();
    }
    String object = m.group(1);
    EventObjects.Definition d = objects.definition(object);
    boolean ascending = m.group(4).startsWith("ASC");
    if (!m.group(3).equals(d.timestampField())) {
      return Optional.of(QueryAnswer.error(400, "MALFORMED_QUERY", "unexpected ORDER BY"));
    }
    if (ascending && d.bigObject()) {
      return Optional.of(
          QueryAnswer.error(
              400,
              "BIG_OBJECT_UNSUPPORTED_OPERATION",
              "Big objects only support ORDER BY on index fields in DESC order"));
    }
    int limit = Integer.parseInt(m.group(5));
    if (limit > 200) {
      return Optional.of(
          QueryAnswer.error(400, "MALFORMED_QUERY", "FIELDS(ALL) allows at most LIMIT 200"));
    }
    Optional<Predicate<EventObjects.Row>> filter = where(m.group(2), d.timestampField());
    if (filter.isEmpty()) {
      return Optional.of(QueryAnswer.error(400, "MALFORMED_QUERY", "unexpected token: " + soql));
    }
    List<EventObjects.Row> rows =
        new ArrayList<>(objects.visible(object).stream().filter(filter.get()).toList());
    if (!ascending) {
      // newest first; ties come back in no particular order, as a big object's do
      rows.sort(
          Comparator.comparing(EventObjects.Row::timestamp)
              .reversed()
              .thenComparing(r -> Integer.reverse(r.id().hashCode())));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (EventObjects.Row r : rows.subList(0, Math.min(limit, rows.size()))) {
      out.add(record(r));
    }
    return Optional.of(QueryAnswer.of(out));
  }

  private QueryAnswer count(String object, String clause) {
    EventObjects.Definition d = objects.definition(object);
    if (d.bigObject()) {
      return QueryAnswer.error(
          400,
          "BIG_OBJECT_UNSUPPORTED_OPERATION",
          "Aggregate functions aren't supported on big objects");
    }
    Optional<Predicate<EventObjects.Row>> filter = where(clause, d.timestampField());
    if (filter.isEmpty()) {
      return QueryAnswer.error(400, "MALFORMED_QUERY", "unexpected token: " + clause);
    }
    return QueryAnswer.count(objects.visible(object).stream().filter(filter.get()).count());
  }

  private static Optional<Predicate<EventObjects.Row>> where(String clause, String tsf) {
    Predicate<EventObjects.Row> all = r -> true;
    String rest = clause;
    Matcher keyset = KEYSET.matcher(clause);
    if (keyset.matches()) {
      if (!keyset.group(1).equals(tsf)) {
        return Optional.empty();
      }
      Instant t = Instant.parse(keyset.group(2));
      String id = keyset.group(3);
      all = r -> r.timestamp().isAfter(t) || r.timestamp().equals(t) && r.id().compareTo(id) > 0;
      rest = keyset.group(4).startsWith(" AND ") ? keyset.group(4).substring(5) : keyset.group(4);
      if (rest.isEmpty()) {
        return Optional.of(all);
      }
    }
    for (String condition : rest.split(" AND ")) {
      Optional<Predicate<EventObjects.Row>> p = condition(condition, tsf);
      if (p.isEmpty()) {
        return Optional.empty();
      }
      all = all.and(p.get());
    }
    return Optional.of(all);
  }

  private static Optional<Predicate<EventObjects.Row>> condition(String text, String tsf) {
    Matcher notIn = NOT_IN.matcher(text);
    if (notIn.matches()) {
      Set<String> ids = new TreeSet<>();
      Matcher item = ID_ITEM.matcher(notIn.group(1));
      while (item.find()) {
        ids.add(item.group(1));
      }
      return Optional.of(r -> !ids.contains(r.id()));
    }
    Matcher c = COMPARE.matcher(text);
    if (!c.matches()) {
      return Optional.empty();
    }
    String op = c.group(2);
    if (c.group(1).equals(tsf) && c.group(3) != null) {
      Instant t = Instant.parse(c.group(3));
      return Optional.of(r -> compares(r.timestamp().compareTo(t), op));
    }
    if (c.group(1).equals("Id") && c.group(4) != null) {
      String id = c.group(4);
      return Optional.of(r -> compares(r.id().compareTo(id), op));
    }
    return Optional.empty();
  }

  private static boolean compares(int cmp, String op) {
    return switch (op) {
      case ">=" -> cmp >= 0;
      case "<=" -> cmp <= 0;
      case "<" -> cmp < 0;
      case ">" -> cmp > 0;
      default -> cmp == 0;
    };
  }

  private Map<String, Object> record(EventObjects.Row r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(
        "attributes",
        Map.of(
            "type",
            r.object(),
            "url",
            "/services/data/v" + objects.apiVersion() + "/sobjects/" + r.object() + "/" + r.id()));
    out.put("Id", r.id());
    out.putAll(r.fields());
    return out;
  }
}
