package io.sf2loki.source.elo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.EventTimes;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Reads one Event Log Object from a checkpoint up to a settled bound, page by page, every row once.
 *
 * <p>Each query is {@code WHERE Timestamp >= from AND Timestamp < to ORDER BY Timestamp ASC LIMIT
 * 2000} with {@code to - from <= 15 days} and {@code to <= upTo}: two Timestamp filters, no {@code
 * Id}, no {@code OFFSET}, no {@code !=}. A short page ends the window. A full page may end inside a
 * millisecond that holds more rows than the page showed; Event Log Objects have no {@code Id} to
 * break that tie, so the rows of that last millisecond are dropped from the page and re-read whole
 * with {@code WHERE Timestamp = t} (one filter; {@code queryMore} brings every batch), and the
 * checkpoint moves to {@code t + 1 ms}. That re-read is complete because {@code t < upTo}, and the
 * caller keeps {@code upTo} at least the 45-minute visibility lag behind Salesforce's now, so every
 * row of {@code t} is already queryable. Not thread-safe: one reader per source thread.
 */
public final class EloReader {

  /** Rows asked for per window query ({@code queryMore} batches follow inside it). */
  public static final int PAGE = 2000;

  /** The longest {@code Timestamp} range Event Log Objects accept in one query. */
  public static final Duration MAX_WINDOW = Duration.ofDays(15);

  /** Runs one SOQL query, every batch followed. */
  @FunctionalInterface
  public interface Query {
    List<ObjectNode> run(String soql)
        throws SalesforceApiException, AuthException, InterruptedException;
  }

  /** Receives the rows of one page and the checkpoint that is true once they are handed on. */
  @FunctionalInterface
  public interface PageSink {
    void accept(List<ObjectNode> rows, EloCheckpoint after) throws InterruptedException;
  }

  private final Query query;

  public EloReader(Query query) {
    this.query = Objects.requireNonNull(query, "query");
  }

  /**
   * Reads {@code object}'s rows from {@code start} to before {@code upTo}; returns the checkpoint
   * reached ({@code start} itself when there is nothing settled to read, or when stopped).
   *
   * @param fields the fields selected (from {@code describe}); must include {@code Timestamp}
   */
  public EloCheckpoint read(
      String object,
      List<String> fields,
      EloCheckpoint start,
      Instant upTo,
      PageSink sink,
      BooleanSupplier stop)
      throws SalesforceApiException, AuthException, InterruptedException {
    if (!fields.contains("Timestamp")) {
      throw new IllegalArgumentException(object + ": the field list lacks Timestamp");
    }
    Instant bound = upTo.truncatedTo(ChronoUnit.MILLIS);
    String select = "SELECT " + String.join(",", fields) + " FROM " + object;
    EloCheckpoint at = start;
    while (!stop.getAsBoolean()) {
      Instant to = min(at.from().plus(MAX_WINDOW), bound);
      if (!at.from().isBefore(to)) {
        return at;
      }
      List<ObjectNode> page =
          query.run(
              select
                  + " WHERE Timestamp >= "
                  + Soql.datetimeLiteral(at.from())
                  + " AND Timestamp < "
                  + Soql.datetimeLiteral(to)
                  + " ORDER BY Timestamp ASC LIMIT "
                  + PAGE);
      if (page.size() < PAGE) {
        at = new EloCheckpoint(to);
        sink.accept(page, at);
        continue;
      }
      Instant last = timestamp(object, page.get(page.size() - 1));
      List<ObjectNode> rows = new ArrayList<>(page.size());
      for (ObjectNode row : page) {
        if (timestamp(object, row).isBefore(last)) {
          rows.add(row);
        }
      }
      rows.addAll(query.run(select + " WHERE Timestamp = " + Soql.datetimeLiteral(last)));
      at = new EloCheckpoint(last.plusMillis(1));
      sink.accept(rows, at);
    }
    return at;
  }

  private static Instant timestamp(String object, ObjectNode row)
      throws MalformedResponseException {
    String raw = row.path("Timestamp").asText("");
    return EventTimes.parse(raw)
        .orElseThrow(
            () ->
                new MalformedResponseException(
                    object + ": a row's Timestamp is not a dateTime: " + raw, null));
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
