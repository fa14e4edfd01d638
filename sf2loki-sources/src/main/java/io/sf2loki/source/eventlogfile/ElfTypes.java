package io.sf2loki.source.eventlogfile;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.salesforce.soql.Condition;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.salesforce.soql.SoqlQuery;
import io.sf2loki.shape.Categories;
import io.sf2loki.spi.CategoryOwnership;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event types one run of the source reads: the explicit ones, plus with {@code *} the org's,
 * minus the categories another source owns ({@link CategoryOwnership}). With {@code *} the type
 * discovery query runs at the first cycle of a run, and again after a failed one; after that the
 * cycle's listing finds the types that appear later ({@link #admit}), so no cycle pays for a
 * discovery. Every type the run has judged, admitted or refused, is {@link #known()}: the listing
 * names them, so a refused type's files are never listed.
 */
final class ElfTypes {

  private static final Logger LOG = LoggerFactory.getLogger(ElfTypes.class);
  static final String DISCOVERY = "discovery";

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final CategoryOwnership ownership;
  private final ElfMetrics metrics;
  private final Escalation escalation;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();
  private final Set<String> refused = ConcurrentHashMap.newKeySet();
  private final Set<String> unusable = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean unusableRecordLogged = new AtomicBoolean();
  private volatile boolean discovered;

  ElfTypes(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      CategoryOwnership ownership,
      ElfMetrics metrics,
      Escalation escalation) {
    this.config = config;
    this.rest = rest;
    this.ownership = ownership;
    this.metrics = metrics;
    this.escalation = escalation;
    admitted.addAll(config.explicitTypes());
  }

  /**
   * The types to read this cycle (explicit ones in config order, then the others sorted),
   * discovering them first when this run has not yet (or its last discovery failed); empty when
   * discovery throttled (the cycle is skipped).
   */
  Optional<List<String>> resolve() throws AuthException, InterruptedException {
    if (config.discovers() && !discovered) {
      try {
        for (String t : rest.query(discoveryQuery()).texts("EventType")) {
          admit(t);
        }
        discovered = true;
        escalation.succeeded(DISCOVERY);
      } catch (ThrottledException e) {
        metrics.throttled("soql");
        LOG.error("EventLogFile type discovery throttled; skipping this cycle");
        return Optional.empty();
      } catch (SalesforceApiException e) {
        metrics.pollError(DISCOVERY);
        escalation.failed(
            DISCOVERY, "EventLogFile type discovery failed; only explicit types run", e);
      }
    }
    List<String> out = new ArrayList<>(config.explicitTypes());
    new TreeSet<>(admitted).stream().filter(t -> !out.contains(t)).forEach(out::add);
    return Optional.of(List.copyOf(out));
  }

  /**
   * True when the cycle's listing may also list types it does not name (those that appeared after
   * discovery): only with {@code *} and once discovery succeeded, so a failed discovery leaves only
   * the explicit types running.
   */
  boolean listsUnknown() {
    return config.discovers() && discovered;
  }

  /** Every type judged so far: admitted or refused. */
  Set<String> known() {
    Set<String> all = new TreeSet<>(admitted);
    all.addAll(refused);
    return all;
  }

  /**
   * Judges a type found by discovery or in a listing: true when the run reads it (explicit, or its
   * category is not another source's); an unusable name is skipped with a WARN, once.
   */
  boolean admit(String type) {
    if (admitted.contains(type)) {
      return true;
    }
    if (refused.contains(type) || unusable.contains(type)) {
      return false;
    }
    if (!Soql.isIdentifier(type)) {
      if (!type.isBlank() && unusable.add(type)) {
        LOG.warn("EventLogFile discovery returned an unusable event type; skipped");
      }
      return false;
    }
    if (config.explicitTypes().contains(type)
        || ownership.mayIngestDiscovered(ElfMetrics.SOURCE, Categories.ofElfType(type))) {
      admitted.add(type);
      return true;
    }
    refused.add(type);
    return false;
  }

  /** True the first time a listing skipped an unusable record in this run (it WARNs once). */
  boolean firstUnusableRecord() {
    return unusableRecordLogged.compareAndSet(false, true);
  }

  /** True while the last discovery failed (the cycle then missed types). */
  boolean discoveryFailing() {
    return escalation.failing(DISCOVERY);
  }

  private String discoveryQuery() {
    return SoqlQuery.select("EventType")
        .from("EventLogFile")
        .where(Condition.equalTo("Interval", Soql.intervalLiteral(config.interval())))
        .groupBy("EventType")
        .build();
  }
}
