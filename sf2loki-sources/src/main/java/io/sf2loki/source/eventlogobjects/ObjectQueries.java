package io.sf2loki.source.eventlogobjects;

import io.sf2loki.salesforce.soql.Condition;
import io.sf2loki.salesforce.soql.Soql;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The exact SOQL shapes of the eventlog_objects catalogue. Literals and conditions come from the
 * shared {@link Soql} and {@link Condition} builders; the statement itself is assembled here
 * because {@code SELECT FIELDS(ALL)} and the drain's {@code AND ...} fragments are outside {@link
 * io.sf2loki.salesforce.soql.SoqlQuery}'s shapes. Every interpolated name was validated at config
 * binding and every id is validated here.
 */
final class ObjectQueries {

  /** {@code FIELDS(ALL)} allows at most {@code LIMIT 200}. */
  static final int PAGE = 200;

  private final String object;
  private final String tsf;
  private final Optional<Instant> settleBound;

  /**
   * @param settleBound the inclusive upper bound {@code now_sf − settle_window}, if enabled
   */
  ObjectQueries(ObjectSpec spec, Optional<Instant> settleBound) {
    this.object = spec.name();
    this.tsf = spec.timestampField();
    this.settleBound = settleBound;
  }

  /** Ascending page from the cursor: {@code >=} without a known id, keyset with one. */
  String ascending(Instant watermark, Optional<String> lastId) {
    String lit = Soql.datetimeLiteral(watermark);
    Condition cursor =
        lastId
            .map(
                id ->
                    Condition.anyOf(
                        Condition.compare(tsf, ">", lit),
                        Condition.allOf(
                            Condition.compare(tsf, "=", lit),
                            Condition.compare("Id", ">", Soql.idLiteral(id)))))
            .orElse(Condition.atLeast(tsf, lit));
    return "SELECT FIELDS(ALL) FROM "
        + object
        + " WHERE "
        + cursor.text()
        + settle()
        + " ORDER BY "
        + tsf
        + " ASC, Id ASC LIMIT "
        + PAGE;
  }

  /** A newest-first drain page: the base plus {@code extra} conditions (each starting with AND). */
  String descending(Instant watermark, String extra) {
    return "SELECT FIELDS(ALL) FROM "
        + object
        + " WHERE "
        + tsf
        + " >= "
        + Soql.datetimeLiteral(watermark)
        + settle()
        + extra
        + " ORDER BY "
        + tsf
        + " DESC LIMIT "
        + PAGE;
  }

  /** {@code AND tsf <= upper} or {@code AND tsf < upper}. */
  String below(Instant upper, boolean inclusive) {
    return " AND " + tsf + (inclusive ? " <= " : " < ") + Soql.datetimeLiteral(upper);
  }

  /**
   * The tie escape within an id range: {@code AND tsf = t [AND Id >= lo] [AND Id < hi] [AND Id NOT
   * IN (...)]}.
   */
  String tie(Instant t, Optional<String> lo, Optional<String> hi, Collection<String> notIn) {
    StringBuilder s =
        new StringBuilder(" AND ").append(tsf).append(" = ").append(Soql.datetimeLiteral(t));
    lo.ifPresent(id -> s.append(" AND Id >= ").append(Soql.idLiteral(id)));
    hi.ifPresent(id -> s.append(" AND Id < ").append(Soql.idLiteral(id)));
    if (!notIn.isEmpty()) {
      s.append(" AND Id NOT IN (")
          .append(notIn.stream().map(Soql::idLiteral).collect(Collectors.joining(", ")))
          .append(')');
    }
    return s.toString();
  }

  private String settle() {
    return settleBound.map(b -> " AND " + tsf + " <= " + Soql.datetimeLiteral(b)).orElse("");
  }
}
