package io.sf2loki.source.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import io.sf2loki.config.Durations;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.source.pubsub.client.Batch;
import io.sf2loki.source.pubsub.client.PubSubCallException;
import io.sf2loki.source.pubsub.client.PubSubClient;
import io.sf2loki.source.pubsub.client.StreamFailure;
import io.sf2loki.source.pubsub.client.TopicStream;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.source.pubsub.replay.ReplayStart;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One topic's subscription for a run: subscribe, hand each response's events downstream (each
 * carrying its replay id), top the credits up, checkpoint keepalive positions, and on any end
 * resubscribe after the last position handed downstream, with capped backoff. Only a corrupt or
 * expired replay id changes where it starts, and only by the configured policy. A topic with a
 * {@link ManagedSubscription} streams with ManagedSubscribe instead: the server picks the start,
 * and locally committed positions are committed on the server.
 */
final class TopicSubscriber {

  private static final Logger LOG = LoggerFactory.getLogger(TopicSubscriber.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final int STALL_STREAK = 3;

  private final String topic;
  private final PubSubClient client;
  private final EventEntries entries;
  private final PubSubConfig config;
  private final PubSubMetrics metrics;
  private final Backoff backoff;
  private final Ticker ticker;
  private final PositionAge age;
  private final Optional<ManagedSubscription> managed;
  private ByteString position = ByteString.EMPTY; // the last id handed downstream
  private int failedBatches;
  private int schemaFailures;

  TopicSubscriber(
      String topic,
      PubSubClient client,
      EventEntries entries,
      PubSubConfig config,
      PubSubMetrics metrics,
      Backoff backoff,
      Ticker ticker,
      PositionAge age,
      Optional<ManagedSubscription> managed) {
    this.topic = topic;
    this.client = client;
    this.entries = entries;
    this.config = config;
    this.metrics = metrics;
    this.backoff = backoff;
    this.ticker = ticker;
    this.age = age;
    this.managed = managed;
  }

  /** Streams until a stop is requested. */
  void run(SourceContext ctx) throws Exception {
    String key = ReplayIds.key(topic);
    Optional<String> stored = ctx.checkpoint(key);
    Optional<ByteString> id = stored.flatMap(ReplayIds::decode);
    ReplayStart start = ReplayStart.of(id, config.replayPreset());
    if (stored.isPresent() && id.isEmpty()) {
      metrics.checkpointLoadError();
      start = unreadableStoredPosition(stored.get());
    }
    position = id.orElse(ByteString.EMPTY);
    int attempt = 0;
    while (!ctx.stopRequested()) {
      if (++attempt > 1) {
        metrics.reconnect(topic);
      }
      Outcome outcome = stream(ctx, start);
      metrics.streamUp(topic, false);
      if (outcome.received()) {
        attempt = 1; // the backoff resets after the first message on a connection
        managed.ifPresent(ManagedSubscription::streamed);
      }
      Optional<StreamFailure> failure = outcome.failure();
      if (failure.isPresent() && failure.get() instanceof StreamFailure.CorruptReplay c) {
        if (start.custom() && managed.isEmpty()) { // a managed stream's start is the server's
          if (config.invalidReplay() == PubSubConfig.InvalidReplay.FAIL) {
            throw new InvalidReplayIdException(
                topic, ReplayIds.hex(start.replayId()), c.description());
          }
          metrics.replayFallback(topic);
          LOG.error(
              "pubsub {}: replay id {} is expired or corrupt ({}); resuming from EARLIEST"
                  + " (duplicates possible, no gap)",
              topic,
              ReplayIds.hex(start.replayId()),
              c.description());
          position = ByteString.EMPTY;
          start = ReplayStart.earliest();
          continue;
        }
      }
      failure.ifPresent(f -> report(f));
      if (!position.isEmpty()) {
        start = ReplayStart.after(position);
      }
      Duration delay =
          failure.isPresent() && failure.get() instanceof StreamFailure.Permanent
              ? config.reconnectMax()
              : backoff.delay(attempt);
      if (ctx.awaitStop(delay)) {
        return;
      }
    }
  }

  /**
   * A stored position that does not even decode is as corrupt as one the server rejects, and is
   * handled by the same policy: starting from replay_preset instead (LATEST under the default
   * CUSTOM) would skip every event published while the daemon was down.
   */
  private ReplayStart unreadableStoredPosition(String stored) throws InvalidReplayIdException {
    String shown = "'" + (stored.length() > 64 ? stored.substring(0, 64) + "..." : stored) + "'";
    if (managed.isPresent()) { // the server keeps a managed subscription's position
      LOG.error(
          "pubsub {}: stored position {} is not a base64 replay id; ignored, Salesforce keeps the"
              + " managed subscription's position",
          topic,
          shown);
      return ReplayStart.of(Optional.empty(), config.replayPreset());
    }
    String description = "not a base64 replay id";
    if (config.invalidReplay() == PubSubConfig.InvalidReplay.FAIL) {
      throw new InvalidReplayIdException(topic, shown, description);
    }
    metrics.replayFallback(topic);
    LOG.error(
        "pubsub {}: stored position {} is {}; resuming from EARLIEST (duplicates possible, no gap)",
        topic,
        shown,
        description);
    return ReplayStart.earliest();
  }

  private void report(StreamFailure f) {
    metrics.streamError(topic, f.code());
    if (managed.isPresent() && managed.get().report(f, config.reconnectMax())) {
      return;
    }
    if (f instanceof StreamFailure.Auth a) {
      metrics.authRefresh(topic);
      client.invalidateToken();
      LOG.info("pubsub {}: token refused ({}); refreshing it", topic, a.description());
    } else if (f instanceof StreamFailure.Permanent p) {
      LOG.error(
          "pubsub {}: {} (needs a fix in the org or the configuration; retrying every {})",
          topic,
          p.description(),
          config.reconnectMax());
    } else {
      LOG.warn("pubsub {}: stream ended: {}; resubscribing", topic, f.description());
    }
  }

  /** How one Subscribe call ended. */
  private record Outcome(boolean received, Optional<StreamFailure> failure) {}

  private Outcome stream(SourceContext ctx, ReplayStart start) throws Exception {
    boolean received = false;
    long lastMessage = ticker.nanoTime();
    try (TopicStream s = open(start)) {
      while (!ctx.stopRequested()) {
        Optional<String> ours = age.observe(ctx.checkpoint(ReplayIds.key(topic)));
        managed.ifPresent(m -> m.committedLocally(ours, s));
        Optional<TopicStream.Message> m = s.next(POLL);
        if (m.isEmpty()) {
          if (ticker.nanoTime() - lastMessage >= config.stallTimeout().toNanos()) {
            metrics.stall(topic);
            LOG.warn(
                "pubsub {}: no message for {}; reconnecting",
                topic,
                Durations.format(config.stallTimeout()));
            return new Outcome(received, Optional.empty());
          }
          continue;
        }
        if (m.get() instanceof TopicStream.Ended ended) {
          return new Outcome(received, ended.failure());
        }
        Batch r = ((TopicStream.Response) m.get()).batch();
        lastMessage = ticker.nanoTime();
        if (!received) {
          received = true;
          metrics.streamUp(topic, true);
        }
        Optional<StreamFailure> failed = deliver(ctx, r);
        if (failed.isPresent()) {
          return new Outcome(true, failed);
        }
        if (!r.commitOnly()) {
          metrics.pendingCredits(topic, r.pendingNumRequested());
        }
        s.topUp();
      }
      return new Outcome(received, Optional.empty());
    }
  }

  private TopicStream open(ReplayStart start) {
    if (managed.isPresent()) {
      LOG.debug("pubsub {}: managed subscription {}", topic, managed.get().name());
      return managed.get().open(client, config.credits());
    }
    LOG.debug("pubsub {}: subscribing from {}", topic, start);
    return client.subscribe(topic, start, config.credits());
  }

  /**
   * Hands a response downstream, its entries at once; a schema that cannot be fetched now ends the
   * stream after the events before it were handed on.
   */
  private Optional<StreamFailure> deliver(SourceContext ctx, Batch r) throws InterruptedException {
    r.commit().ifPresent(c -> managed.ifPresent(m -> m.answered(c)));
    int decoded = 0;
    List<LogEntry> made = new ArrayList<>(r.events().size() + 1);
    List<String> positions = new ArrayList<>(r.events().size() + 1);
    ByteString last = position;
    Optional<StreamFailure> failed = Optional.empty();
    for (ConsumerEvent event : r.events()) {
      EventEntries.Made m;
      try {
        m = entries.entry(topic, event);
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        failed = Optional.of(schemaFailure(event, e));
        break;
      }
      schemaFailures = 0;
      made.add(m.entry());
      positions.add(m.entry().checkpoint().orElseThrow().value());
      last = event.getReplayId();
      decoded += m.decoded() ? 1 : 0;
    }
    if (failed.isEmpty()) {
      ByteString latest = r.latestReplayId();
      if (!latest.isEmpty() && !latest.equals(last)) {
        String value = ReplayIds.encode(latest);
        made.add(LogEntry.checkpointOnly(new CheckpointToken(ReplayIds.key(topic), value)));
        positions.add(value);
        last = latest;
      }
    }
    if (!made.isEmpty()) {
      ctx.emit(made);
      age.emitted(positions);
      position = last;
    }
    if (failed.isPresent()) {
      return failed;
    }
    metrics.received(topic, r.events().size());
    if (!r.events().isEmpty()) {
      failedBatches = decoded == 0 ? failedBatches + 1 : 0;
      if (failedBatches == STALL_STREAK) {
        metrics.decodeStall(topic);
        LOG.error("pubsub {}: {} batches in a row failed to decode", topic, STALL_STREAK);
      }
    }
    return Optional.empty();
  }

  /** A writer schema that could not be fetched: the stream ends, skipping nothing. */
  private StreamFailure schemaFailure(ConsumerEvent event, Exception e) {
    if (++schemaFailures == 1) {
      LOG.warn(
          "pubsub {}: the writer schema {} of event {} could not be fetched ({}); resubscribing"
              + " after the last delivered event, skipping nothing",
          topic,
          event.getEvent().getSchemaId(),
          ReplayIds.hex(event.getReplayId()),
          e.getMessage());
    }
    if (schemaFailures == STALL_STREAK) {
      metrics.decodeStall(topic);
      LOG.error("pubsub {}: {} schema fetches in a row failed", topic, STALL_STREAK);
    }
    return e instanceof PubSubCallException call
        ? call.failure() // an auth error refreshes the token
        : new StreamFailure.Transient("schema.fetch", e.getMessage());
  }
}
