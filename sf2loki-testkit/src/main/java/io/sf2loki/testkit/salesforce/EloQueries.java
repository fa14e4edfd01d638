package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SOQL against Event Log Objects, under the documented rules (platforms-2026 §1.2): a query whose
 * {@code FROM} names an object ending in {@code EventLog} is answered here. Accepted: {@code SELECT
 * FIELDS(ALL)} (with {@code LIMIT} ≤ 200), a field list or {@code COUNT()} (the documented rules do
 * not refuse it; unverified), a WHERE of {@code AND}ed conditions — {@code Field op literal}
 * ({@code =}, {@code <}, {@code <=}, {@code >}, {@code >=}), {@code Field IN (a, b)}, a
 * parenthesised {@code OR} of such comparisons — {@code ORDER BY Timestamp [ASC|DESC]} and {@code
 * LIMIT}.
 *
 * <p>Refused, each counted in {@link EventLogObjects#refusals()}: {@code OFFSET}, {@code GROUP BY}
 * / {@code HAVING}, relationship fields and sub-queries ({@code MALFORMED_QUERY}); {@code !=} /
 * {@code <>} and three or more {@code Timestamp} values in one WHERE ({@code
 * INVALID_QUERY_FILTER_OPERATOR}); a {@code Timestamp} range wider than 15 days ({@code
 * MALFORMED_QUERY}); {@code Id} or any unknown field ({@code INVALID_FIELD}). Salesforce documents
 * the rules but not the error code of each: these codes are the fake's choice, in Salesforce's
 * error-array shape. A WHERE without a range gets the server's implicit 15 days: none at all reads
 * the last 15 days, one bound reads 15 days in the open direction.
 *
 * <p>Rows sharing one millisecond come back in a different order on every query (Salesforce
 * promises none), so a client cannot page through a tie by position.
 */
final class EloQueries {

  static final Duration MAX_WINDOW = Duration.ofDays(15);

  private static final Pattern FROM = Pattern.compile("\\bFROM ([A-Za-z0-9_]+EventLog)\\b");
  private static final Pattern SHAPE =
      Pattern.compile(
          "SELECT (.+?) FROM ([A-Za-z0-9_]+)(?: WHERE (.+?))?(?: ORDER BY Timestamp( ASC| DESC)?)?"
              + "(?: LIMIT (\\d+))?");
  private static final Pattern COMPARE =
      Pattern.compile("([A-Za-z0-9_.]+) (<=|>=|<|>|=) ('(?:[^'\\\\]|\\\\.)*'|\\S+)");
  private static final Pattern IN = Pattern.compile("([A-Za-z0-9_.]+) IN \\((.+)\\)");
  private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_]+");

  private final EventLogObjects store;
  private final AtomicLong queries = new AtomicLong();

  EloQueries(EventLogObjects store) {
    this.store = store;
  }

  /** Thrown inside parsing to refuse the query. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final transient QueryAnswer answer;

    Refusal(String code, String message) {
      super(message, null, false, false);
      this.answer = QueryAnswer.error(400, code, message);
    }
  }

  /** The answer when {@code soql} reads an Event Log Object; empty for any other query. */
  Optional<QueryAnswer> answer(String soql) {
    Matcher from = FROM.matcher(soql);
    if (!from.find()) {
      return Optional.empty();
    }
    String object = from.group(1);
    if (!store.isDefined(object)) {
      return Optional.of(
          QueryAnswer.error(
              400, "INVALID_TYPE", "sObject type '" + object + "' is not supported."));
    }
    if (!store.hasAccess()) {
      return Optional.of(
          QueryAnswer.error(
              403, "INSUFFICIENT_ACCESS", "insufficient access rights on object " + object));
    }
    try {
      return Optional.of(evaluate(soql, object));
    } catch (Refusal r) {
      store.refused(soql);
      return Optional.of(r.answer);
    }
  }

  private QueryAnswer evaluate(String soql, String object) throws Refusal {
    String upper = soql.toUpperCase(java.util.Locale.ROOT);
    if (upper.contains(" OFFSET ")) {
      throw new Refusal("MALFORMED_QUERY", "OFFSET is not supported on " + object);
    }
    if (upper.contains(" GROUP BY ") || upper.contains(" HAVING ")) {
      throw new Refusal("MALFORMED_QUERY", "GROUP BY and HAVING are not supported on " + object);
    }
    if (upper.contains("(SELECT ")) {
      throw new Refusal("MALFORMED_QUERY", "relationship queries are not supported on " + object);
    }
    if (soql.contains("!=") || soql.contains("<>")) {
      throw new Refusal("INVALID_QUERY_FILTER_OPERATOR", "!= is not supported on " + object);
    }
    Matcher m = SHAPE.matcher(soql);
    if (!m.matches() || !m.group(2).equals(object)) {
      throw new Refusal("MALFORMED_QUERY", "unexpected token in query: " + soql);
    }
    List<String> known = store.fields(object);
    boolean count = m.group(1).equals("COUNT()");
    List<String> selected = count ? List.of() : select(m.group(1), object, known);
    Integer limit = m.group(5) == null ? null : Integer.valueOf(m.group(5));
    if (m.group(1).equals("FIELDS(ALL)") && (limit == null || limit > 200)) {
      throw new Refusal("MALFORMED_QUERY", "FIELDS(ALL) allows at most LIMIT 200");
    }
    Where where = new Where(object, known);
    if (m.group(3) != null) {
      for (String conjunct : splitTopLevel(m.group(3), " AND ")) {
        where.conjunct(conjunct);
      }
    }
    Predicate<EventLogObjects.Row> filter = where.finish(store.now());
    List<EventLogObjects.Row> rows =
        new ArrayList<>(store.visible(object, where.candidatesFrom, where.candidatesTo));
    rows.removeIf(filter.negate());
    if (count) {
      return QueryAnswer.count(rows.size());
    }
    // a fresh tie order per query: shuffle, then a stable sort by timestamp keeps it within ties
    Collections.shuffle(rows, new Random(queries.incrementAndGet()));
    boolean descending = " DESC".equals(m.group(4));
    rows.sort(
        descending
            ? java.util.Comparator.comparing(EventLogObjects.Row::timestamp).reversed()
            : java.util.Comparator.comparing(EventLogObjects.Row::timestamp));
    List<Map<String, Object>> out = new ArrayList<>();
    for (EventLogObjects.Row r :
        rows.subList(0, limit == null ? rows.size() : Math.min(limit, rows.size()))) {
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("attributes", Map.of("type", object));
      for (String f : selected) {
        record.put(f, r.fields().get(f));
      }
      out.add(record);
    }
    return QueryAnswer.of(out);
  }

  private static List<String> select(String list, String object, List<String> known)
      throws Refusal {
    if (list.equals("FIELDS(ALL)")) {
      return known;
    }
    List<String> out = new ArrayList<>();
    for (String raw : list.split(",")) {
      String f = raw.trim();
      checkField(f, object, known);
      out.add(f);
    }
    return out;
  }

  private static void checkField(String f, String object, List<String> known) throws Refusal {
    if (f.contains(".")) {
      throw new Refusal("MALFORMED_QUERY", "relationship queries are not supported on " + object);
    }
    if (!FIELD.matcher(f).matches() || !known.contains(f)) {
      throw new Refusal("INVALID_FIELD", "No such column '" + f + "' on entity '" + object + "'");
    }
  }

  /** Splits on {@code sep} outside parentheses and quotes. */
  static List<String> splitTopLevel(String text, String sep) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\'' && (i == 0 || text.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      } else if (!quoted && depth == 0 && text.startsWith(sep, i)) {
        out.add(text.substring(start, i));
        start = i + sep.length();
        i += sep.length() - 1;
      }
    }
    out.add(text.substring(start));
    return out;
  }

  /** The WHERE being built: its predicate, the Timestamp values counted and the range bounds. */
  private static final class Where {
    private final String object;
    private final List<String> known;
    private Predicate<EventLogObjects.Row> all = r -> true;
    private int timestampValues;
    private boolean pinned; // an equality or IN on Timestamp bounds the read to those points
    private Instant from;
    private Instant to;
    private final List<Comparison> timestampComparisons = new ArrayList<>();
    // every row the WHERE can match has its Timestamp in [candidatesFrom, candidatesTo]
    Instant candidatesFrom = Instant.MIN;
    Instant candidatesTo = Instant.MAX;

    Where(String object, List<String> known) {
      this.object = object;
      this.known = known;
    }

    void conjunct(String text) throws Refusal {
      String c = text.trim();
      if (c.startsWith("(") && c.endsWith(")")) {
        List<String> alternatives = splitTopLevel(c.substring(1, c.length() - 1), " OR ");
        Predicate<EventLogObjects.Row> any = r -> false;
        for (String alternative : alternatives) {
          Comparison cmp = comparison(alternative.trim());
          if (cmp.timestamp()) {
            pinned |= cmp.op().equals("=");
          }
          any = any.or(cmp.test());
        }
        all = all.and(any);
        return;
      }
      Matcher in = IN.matcher(c);
      if (in.matches()) {
        checkField(in.group(1), object, known);
        List<String> values = splitTopLevel(in.group(2), ",");
        List<Predicate<EventLogObjects.Row>> eqs = new ArrayList<>();
        for (String v : values) {
          Comparison cmp = comparison(in.group(1) + " = " + v.trim());
          pinned |= cmp.timestamp();
          eqs.add(cmp.test());
        }
        all = all.and(r -> eqs.stream().anyMatch(p -> p.test(r)));
        return;
      }
      Comparison cmp = comparison(c);
      if (cmp.timestamp()) {
        switch (cmp.op()) {
          case ">", ">=" -> from = from == null || cmp.at().isAfter(from) ? cmp.at() : from;
          case "<", "<=" -> to = to == null || cmp.at().isBefore(to) ? cmp.at() : to;
          default -> pinned = true;
        }
      }
      all = all.and(cmp.test());
    }

    Predicate<EventLogObjects.Row> finish(Instant now) throws Refusal {
      if (timestampValues >= 3) {
        throw new Refusal(
            "INVALID_QUERY_FILTER_OPERATOR",
            "a query on " + object + " allows at most two Timestamp filters");
      }
      if (pinned) {
        if (timestampComparisons.stream().allMatch(c -> c.op().equals("="))) {
          for (Comparison c : timestampComparisons) {
            candidatesFrom =
                candidatesFrom.equals(Instant.MIN) ? c.at() : min(candidatesFrom, c.at());
            candidatesTo = candidatesTo.equals(Instant.MAX) ? c.at() : max(candidatesTo, c.at());
          }
        }
        return all;
      }
      if (from != null && to != null) {
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
          throw new Refusal(
              "MALFORMED_QUERY", "the Timestamp range on " + object + " can't exceed 15 days");
        }
        candidatesFrom = from;
        candidatesTo = to;
        return all;
      }
      // the server's implicit filter: the last 15 days, or 15 days in the open direction
      Instant lo =
          from != null ? from : (to != null ? to.minus(MAX_WINDOW) : now.minus(MAX_WINDOW));
      Instant hi = from != null ? from.plus(MAX_WINDOW) : null;
      candidatesFrom = lo;
      candidatesTo = hi == null ? Instant.MAX : hi;
      return all.and(
          r -> !r.timestamp().isBefore(lo) && (hi == null || !r.timestamp().isAfter(hi)));
    }

    private Comparison comparison(String text) throws Refusal {
      Matcher m = COMPARE.matcher(text);
      if (!m.matches()) {
        throw new Refusal("MALFORMED_QUERY", "unexpected token: " + text);
      }
      String field = m.group(1);
      checkField(field, object, known);
      String op = m.group(2);
      String literal = m.group(3);
      if (field.equals("Timestamp")) {
        timestampValues++;
        Instant at = instant(literal);
        Comparison cmp =
            new Comparison(true, op, at, r -> compares(r.timestamp().compareTo(at), op));
        timestampComparisons.add(cmp);
        return cmp;
      }
      if (!literal.startsWith("'")) {
        throw new Refusal("MALFORMED_QUERY", "expected a quoted value: " + text);
      }
      String value = literal.substring(1, literal.length() - 1).replace("\\'", "'");
      return new Comparison(
          false,
          op,
          null,
          r -> compares(String.valueOf(r.fields().get(field)).compareTo(value), op));
    }
  }

  private record Comparison(
      boolean timestamp, String op, Instant at, Predicate<EventLogObjects.Row> test) {}

  private static Instant instant(String literal) throws Refusal {
    try {
      return OffsetDateTime.parse(literal).toInstant();
    } catch (DateTimeParseException e) {
      throw new Refusal(
          "MALFORMED_QUERY",
          "value of filter criterion for field 'Timestamp'"
              + " must be of type dateTime and should not be enclosed in quotes: "
              + literal);
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
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
}
