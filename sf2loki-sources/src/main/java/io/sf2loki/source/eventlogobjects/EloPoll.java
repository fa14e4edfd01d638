package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.source.elo.EloCheckpoint;
import io.sf2loki.source.elo.EloDiscovery;
import io.sf2loki.source.elo.EloReader;
import io.sf2loki.source.window.TimeWindow;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One poll cycle of one Event Log Object ({@code *EventLog}) through {@link EloReader}: fields from
 * {@code describe} (once per run), the checkpoint token {@link EloCheckpoint} under the object's
 * key, the upper bound Salesforce's now minus the settle window (at least 45 minutes) and the
 * window's {@code until}; without a checkpoint of its own, an object starts where its EventLogFile
 * type's files ended ({@link ElfHandover}). A user without the permission gets one ERROR naming it,
 * then quiet retries each poll so that granting it needs no restart. Confined to the source thread.
 */
final class EloPoll {

  private static final Logger LOG = LoggerFactory.getLogger(EloPoll.class);

  /** Rows become queryable up to 45 minutes after the event (Salesforce's documentation). */
  static final Duration MIN_SETTLE = Duration.ofMinutes(45);

  /** 45 minutes plus 5 for the error in sf2loki's estimate of Salesforce's clock. */
  static final Duration DEFAULT_SETTLE = Duration.ofMinutes(50);

  private final SalesforceRestClient rest;
  private final ObjectEmitter emitter;
  private final Supplier<Instant> salesforceNow;
  private final TimeWindow window;
  private final EloReader reader;
  private final Map<String, List<String>> fields = new HashMap<>();
  private final Map<String, EloCheckpoint> checkpoints = new HashMap<>();
  private final Set<String> refused = new HashSet<>();

  EloPoll(
      SalesforceRestClient rest,
      ObjectEmitter emitter,
      Supplier<Instant> salesforceNow,
      TimeWindow window) {
    this.rest = rest;
    this.emitter = emitter;
    this.salesforceNow = salesforceNow;
    this.window = window;
    this.reader = new EloReader(q -> rest.query(q).records());
  }

  /** Records {@code object}'s fields, already read from its {@code describe} (by discovery). */
  void knownFields(String object, List<String> names) {
    if (names.contains("Timestamp")) {
      fields.put(object, List.copyOf(names));
    }
  }

  /** True for an Event Log Object's name. */
  static boolean isEventLogObject(String name) {
    return name.endsWith("EventLog");
  }

  ObjectPoller.Outcome poll(ObjectSpec spec, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    Optional<List<String>> names = fields(spec);
    if (names.isEmpty()) {
      return ObjectPoller.Outcome.STALLED;
    }
    EloCheckpoint start = checkpoints.computeIfAbsent(spec.name(), n -> load(spec, ctx));
    Instant settled = salesforceNow.get().minus(spec.settleWindow());
    Instant upTo = window.until().filter(u -> u.isBefore(settled)).orElse(settled);
    EloCheckpoint reached =
        reader.read(
            spec.name(),
            names.get(),
            start,
            upTo,
            (rows, after) -> {
              emitter.emitPage(
                  spec,
                  rows,
                  after.from(),
                  new CheckpointToken(spec.checkpointKey(), after.encode()),
                  ctx);
              checkpoints.put(spec.name(), after);
            },
            ctx::stopRequested);
    boolean finished = window.until().isPresent() && !reached.from().isBefore(window.until().get());
    return finished && !ctx.stopRequested()
        ? ObjectPoller.Outcome.FINISHED
        : ObjectPoller.Outcome.DONE;
  }

  private Optional<List<String>> fields(ObjectSpec spec)
      throws SalesforceApiException, AuthException, InterruptedException {
    List<String> known = fields.get(spec.name());
    if (known != null) {
      return Optional.of(known);
    }
    JsonNode describe;
    try {
      describe = rest.getJson(rest.dataPath("sobjects/" + spec.name() + "/describe"));
    } catch (ApiErrorException e) {
      if (e.status() != 403 && e.status() != 404 && !e.body().contains("INSUFFICIENT_ACCESS")) {
        throw e;
      }
      boolean first = refused.isEmpty();
      if (!refused.add(spec.name())) {
        return Optional.empty(); // said already
      }
      if (first) {
        LOG.error(
            "{}: Event Log Object not readable ({} {}): it needs a Hyperforce org with Shield or"
                + " the Event Monitoring add-on and a user with the permission \"{}\"; retrying"
                + " quietly each poll",
            spec.name(),
            e.status(),
            e.body(),
            EloDiscovery.PERMISSION);
      } else {
        // one cause, one ERROR: the org or the user lacks Event Log Objects for every object
        LOG.info(
            "{}: Event Log Object not readable either ({} {}); retrying quietly each poll",
            spec.name(),
            e.status(),
            e.body());
      }
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    describe.path("fields").forEach(f -> out.add(f.path("name").asText("")));
    if (!out.contains("Timestamp")) {
      throw new MalformedResponseException(
          spec.name() + ": describe lists no Timestamp field", null);
    }
    refused.remove(spec.name());
    fields.put(spec.name(), List.copyOf(out));
    return Optional.of(fields.get(spec.name()));
  }

  /** A stored token, or empty when it is not one (the caller falls back as for no token). */
  static Optional<EloCheckpoint> decodeQuietly(String stored) {
    try {
      return Optional.of(EloCheckpoint.decode(stored));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * The windows of at most 15 days a read from {@code from} to {@code until} queries: at least 1.
   */
  static long windows(Instant from, Instant until) {
    long millis = Math.max(0, until.toEpochMilli() - from.toEpochMilli());
    long max = EloReader.MAX_WINDOW.toMillis();
    return Math.max(1, (millis + max - 1) / max);
  }

  private EloCheckpoint load(ObjectSpec spec, SourceContext ctx) {
    Optional<String> stored = ctx.checkpoint(spec.checkpointKey());
    if (stored.isPresent()) {
      try {
        return EloCheckpoint.decode(stored.get());
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "{}: stored checkpoint {} is corrupt ({}); starting at the lookback",
            spec.name(),
            spec.checkpointKey(),
            e.getMessage());
      }
    }
    Instant from =
        window
            .start()
            .orElseGet(() -> salesforceNow.get().minus(spec.lookback()))
            .truncatedTo(ChronoUnit.MILLIS);
    if (stored.isEmpty()) {
      Optional<ElfHandover.Result> handover = ElfHandover.of(spec.name(), ctx::checkpoint);
      if (handover.orElse(null) instanceof ElfHandover.Handover h) {
        Instant at = window.start().filter(s -> s.isAfter(h.from())).orElse(h.from());
        LOG.info(
            "{}: no checkpoint of its own; taking over from {}, whose files covered the events"
                + " before {}: starting there",
            spec.name(),
            h.elfKey(),
            h.from());
        return new EloCheckpoint(at.truncatedTo(ChronoUnit.MILLIS));
      }
      if (handover.orElse(null) instanceof ElfHandover.Unusable u) {
        LOG.warn(
            "{}: no checkpoint of its own and {} cannot hand over ({}); starting at {}, so hours"
                + " EventLogFile already shipped may be shipped again: `state set {}` moves the"
                + " start",
            spec.name(),
            u.elfKey(),
            u.why(),
            from,
            spec.checkpointKey());
      }
    }
    return new EloCheckpoint(from);
  }
}
