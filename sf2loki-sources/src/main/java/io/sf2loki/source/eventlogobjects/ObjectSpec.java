package io.sf2loki.source.eventlogobjects;

import io.sf2loki.shape.TypeShaping;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One configured object of {@code sources.eventlog_objects.objects}.
 *
 * @param name the sObject API name, also the {@code event_type} label
 * @param timestampField the field the cursor and the query order use
 * @param bigObject drain newest-first (big objects reject ascending order)
 * @param pollInterval the longest time between polls (jitter shortens it by up to 10 %)
 * @param lookback where the first run (or a run after a corrupt checkpoint) starts
 * @param settleWindow rows younger than this on Salesforce's clock wait for a later poll; zero
 *     disables the bound
 * @param shaping labels, metadata override and sample rate of this object
 */
public record ObjectSpec(
    String name,
    String timestampField,
    boolean bigObject,
    Duration pollInterval,
    Duration lookback,
    Duration settleWindow,
    TypeShaping shaping) {

  public ObjectSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(timestampField, "timestampField");
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(settleWindow, "settleWindow");
    Objects.requireNonNull(shaping, "shaping");
  }

  /** The checkpoint key: {@code eventlog_objects:{Object}}. */
  public String checkpointKey() {
    return "eventlog_objects:" + name;
  }

  /** Fields tried for the entry time: the timestamp field, then EventDate, then CreatedDate. */
  public List<String> timeFields() {
    return List.of(timestampField, "EventDate", "CreatedDate").stream().distinct().toList();
  }
}
