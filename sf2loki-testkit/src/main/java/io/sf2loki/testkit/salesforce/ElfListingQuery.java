package io.sf2loki.testkit.salesforce;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The EventLogFile listing that serves every event type at once: per-type lower bounds OR-ed
 * together (a term without a type filter, or with {@code NOT IN}, admits types the query does not
 * name), an optional exclusive upper bound, and an optional keyset continuation after the last
 * (CreatedDate, Id) of the previous page. It also selects {@code LogFileFieldNames} and {@code
 * LogFileFieldTypes}.
 *
 * <pre>
 * SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence,LogFileFieldNames,
 * LogFileFieldTypes FROM EventLogFile WHERE Interval='Hourly' AND ((CreatedDate >= {a} AND
 * EventType='Login') OR (CreatedDate >= {b} AND EventType IN ('API','URI')) OR (CreatedDate >=
 * {c} AND EventType NOT IN ('Login','API','URI'))) [AND CreatedDate < {until}] [AND (CreatedDate >
 * {x} OR (CreatedDate = {x} AND Id > '{id}'))] ORDER BY CreatedDate, Id LIMIT {n}
 * </pre>
 */
final class ElfListingQuery {

  static final Pattern SHAPE =
      Pattern.compile(
          "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence,"
              + "LogFileFieldNames,LogFileFieldTypes FROM EventLogFile WHERE"
              + " Interval='(Hourly|Daily)' AND \\((.+?)\\)"
              + "(?: AND CreatedDate < (\\S+))?"
              + "(?: AND \\(CreatedDate > (\\S+) OR \\(CreatedDate = (\\S+) AND"
              + " Id > '([A-Za-z0-9]{15,18})'\\)\\))?"
              + " ORDER BY CreatedDate, Id LIMIT (\\d+)");
  private static final Pattern TERM =
      Pattern.compile(
          "\\(CreatedDate >= ([0-9T:.\\-]+Z)(?: AND EventType(?:='([A-Za-z0-9_]+)'"
              + "| (NOT )?IN \\(('[A-Za-z0-9_]+'(?:,'[A-Za-z0-9_]+')*)\\)))?\\)");
  private static final Pattern LITERAL =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  /** One OR-ed lower bound: files at or after {@code from} of the admitted types. */
  record Term(Instant from, Optional<Set<String>> types, boolean excludes) {
    boolean admits(LogFileSpec f) {
      boolean typeOk = types.isEmpty() || types.get().contains(f.eventType()) != excludes;
      return typeOk && !f.createdDate().isBefore(from);
    }
  }

  /** A parsed query. */
  record Parsed(
      String interval,
      List<Term> terms,
      Optional<Instant> until,
      Optional<Instant> afterCreated,
      Optional<String> afterId,
      int limit) {

    boolean matches(LogFileSpec f) {
      return f.interval().equals(interval)
          && terms.stream().anyMatch(t -> t.admits(f))
          && until.map(u -> f.createdDate().isBefore(u)).orElse(true)
          && afterCreated
              .map(
                  x ->
                      f.createdDate().isAfter(x)
                          || f.createdDate().equals(x) && f.id().compareTo(afterId.get()) > 0)
              .orElse(true);
    }
  }

  private ElfListingQuery() {}

  /** The query, or empty when {@code soql} is not of this shape (or holds a bad literal). */
  static Optional<Parsed> parse(String soql) {
    Matcher m = SHAPE.matcher(soql);
    if (!m.matches()) {
      return Optional.empty();
    }
    Optional<List<Term>> terms = terms(m.group(2));
    Optional<Instant> until = optionalLiteral(m.group(3));
    Optional<Instant> after = optionalLiteral(m.group(4));
    boolean sameAfter = m.group(4) == null || m.group(4).equals(m.group(5));
    if (terms.isEmpty()
        || (m.group(3) != null && until.isEmpty())
        || (m.group(4) != null && after.isEmpty())
        || !sameAfter) {
      return Optional.empty();
    }
    return Optional.of(
        new Parsed(
            m.group(1),
            terms.get(),
            until,
            after,
            Optional.ofNullable(m.group(6)),
            Integer.parseInt(m.group(7))));
  }

  /** {@code term OR term ...}, every character accounted for. */
  private static Optional<List<Term>> terms(String text) {
    List<Term> out = new ArrayList<>();
    Matcher t = TERM.matcher(text);
    int at = 0;
    while (at < text.length()) {
      if (!out.isEmpty()) {
        if (!text.startsWith(" OR ", at)) {
          return Optional.empty();
        }
        at += 4;
      }
      if (!t.find(at) || t.start() != at) {
        return Optional.empty();
      }
      Optional<Instant> from = optionalLiteral(t.group(1));
      if (from.isEmpty()) {
        return Optional.empty();
      }
      Optional<Set<String>> types =
          t.group(2) != null
              ? Optional.of(Set.of(t.group(2)))
              : Optional.ofNullable(t.group(4)).map(ElfListingQuery::names);
      out.add(new Term(from.get(), types, t.group(3) != null));
      at = t.end();
    }
    return out.isEmpty() ? Optional.empty() : Optional.of(out);
  }

  private static Set<String> names(String quoted) {
    return new HashSet<>(List.of(quoted.replace("'", "").split(",")));
  }

  private static Optional<Instant> optionalLiteral(String value) {
    if (value == null || !LITERAL.matcher(value).matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
