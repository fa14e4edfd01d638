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
 * binding and every id is validated here. Every shape carries the same upper bounds: the settle
 * bound ({@code tsf <= now_sf − settle_window}) and the window's {@code until} ({@code tsf <
 * until}), each when set.
 */
final class ObjectQueries {

  /** {@code FIELDS(ALL)} allows at most {@code LIMIT 200}. */
  static final int PAGE = 200;

  private final String object;
  private final String tsf;
  private final Optional<Instant> settleBound;
  private final Optional<Instant> until;

  /**
   * @param settleBound the inclusive upper bound {@code now_sf − settle_window}, if enabled
   * @param until the window's exclusive upper bound, if set
   */
  ObjectQueries(ObjectSpec spec, Optional<Instant> settleBound, Optional<Instant> until) {
    this.object = spec.name();
    this.tsf = spec.timestampField();
    this.settleBound = settleBound;
    this.until = until;
  }

  /** Ascending page from the cursor: {@code >=} without a known id, keyset with one. */
  String ascending(Instant watermark, Optional<String> lastId) {
    return "SELECT FIELDS(ALL) FROM "
        + object
        + " WHERE "
        + cursor(watermark, lastId).text()
        + bounds()
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
        + bounds()
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

  /**
   * The rows the ascending path would still read from the cursor, counted: {@code SELECT COUNT()
   * FROM {Obj} WHERE {cursor} {bounds}} (the backfill estimate; big objects refuse aggregates).
   */
  String count(Instant watermark, Optional<String> lastId) {
    return "SELECT COUNT() FROM "
        + object
        + " WHERE "
        + cursor(watermark, lastId).text()
        + bounds();
  }

  /** From the cursor: {@code >=} without a known id, the {@code (tsf, Id)} keyset with one. */
  private Condition cursor(Instant watermark, Optional<String> lastId) {
    String lit = Soql.datetimeLiteral(watermark);
    return lastId
        .map(
            id ->
                Condition.anyOf(
                    Condition.compare(tsf, ">", lit),
                    Condition.allOf(
                        Condition.compare(tsf, "=", lit),
                        Condition.compare("Id", ">", Soql.idLiteral(id)))))
        .orElse(Condition.atLeast(tsf, lit));
  }

  private String bounds() {
    return settleBound.map(b -> " AND " + tsf + " <= " + Soql.datetimeLiteral(b)).orElse("")
        + until.map(u -> " AND " + tsf + " < " + Soql.datetimeLiteral(u)).orElse("");
  }
}
