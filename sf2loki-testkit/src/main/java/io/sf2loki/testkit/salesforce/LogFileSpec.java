package io.sf2loki.testkit.salesforce;

import java.time.Instant;
import java.util.Objects;

/**
 * One {@code EventLogFile} record of the fake org. Its CSV body is generated deterministically from
 * {@code seed}, so a test can regenerate the exact rows it expects to arrive.
 *
 * @param id the 18-character record id
 * @param eventType e.g. {@code Login}
 * @param interval {@code Hourly} or {@code Daily}
 * @param logDate the start of the hour or day the file covers
 * @param createdDate when Salesforce generated the file (what the listing filters on); kept to
 *     millisecond precision like Salesforce
 * @param sequence the file's sequence within its hour (late events get a higher one)
 * @param rows number of data rows
 * @param seed seed of the generated content
 * @param tricky whether rows include quoted newlines, doubled quotes, non-ASCII and ragged rows
 */
public record LogFileSpec(
    String id,
    String eventType,
    String interval,
    Instant logDate,
    Instant createdDate,
    int sequence,
    long rows,
    long seed,
    boolean tricky) {

  public LogFileSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(logDate, "logDate");
    Objects.requireNonNull(createdDate, "createdDate");
    if (!id.matches("[A-Za-z0-9]{18}")) {
      throw new IllegalArgumentException("id must be 18 alphanumerics: " + id);
    }
    if (!interval.equals("Hourly") && !interval.equals("Daily")) {
      throw new IllegalArgumentException("interval must be Hourly or Daily: " + interval);
    }
    createdDate = createdDate.truncatedTo(java.time.temporal.ChronoUnit.MILLIS); // SF precision
    if (rows < 0) {
      throw new IllegalArgumentException("rows must not be negative");
    }
  }

  /** The same file regenerated in place (Salesforce does this to Daily files): newer date. */
  public LogFileSpec regenerated(Instant newCreatedDate, long newRows, long newSeed) {
    return new LogFileSpec(
        id, eventType, interval, logDate, newCreatedDate, sequence, newRows, newSeed, tricky);
  }
}
