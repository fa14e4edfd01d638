package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.spi.SourceContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A source's pipeline on a simulated clock, for the benchmarks: the entries up to each checkpoint
 * token are pushed to a (fake) Loki at once and synchronously, then the token is committed and
 * handed to {@code persist} (commit after push, as the pipeline does, one page at a time); a wait
 * ({@link #awaitStop}) moves the simulated clock by the wait through {@code advance} instead of
 * sleeping. So the clock never moves while a page is in flight, and Loki's acceptance time of an
 * entry is the simulated time of the poll that read it. Thread-safe (the EventLogFile source emits
 * from its download threads).
 */
public final class SimulatedDelivery implements SourceContext {

  /** Moves the shared simulated clock by a wait; returns the new simulated now. */
  @FunctionalInterface
  public interface Advance {
    Instant advance(Duration by) throws IOException, InterruptedException;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MutableClock clock;
  private final Instant end;
  private final URI push;
  private final Map<String, String> committed;
  private final java.util.function.Consumer<Map<String, String>> persist;
  private final Advance advance;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final List<LogEntry> pending = new ArrayList<>();
  private long rows;
  private long waits;

  /**
   * @param clock this process's view of the simulated clock, set by {@code advance}'s answers
   * @param end the simulated instant at which the run stops
   * @param push the Loki push URL
   * @param committed the checkpoints committed so far (a restart's stored ones)
   * @param persist called with every checkpoint after each commit (the durable store)
   */
  public SimulatedDelivery(
      MutableClock clock,
      Instant end,
      URI push,
      Map<String, String> committed,
      java.util.function.Consumer<Map<String, String>> persist,
      Advance advance) {
    this.clock = clock;
    this.end = end;
    this.push = push;
    this.committed = new ConcurrentHashMap<>(committed);
    this.persist = persist;
    this.advance = advance;
  }

  @Override
  public synchronized void emit(LogEntry entry) throws InterruptedException {
    if (!entry.isCheckpointOnly()) {
      pending.add(entry);
      rows++;
    }
    if (entry.checkpoint().isPresent()) {
      pushPending();
      committed.put(entry.checkpoint().get().key(), entry.checkpoint().get().value());
      persist.accept(Map.copyOf(committed));
    }
  }

  private void pushPending() throws InterruptedException {
    if (pending.isEmpty()) {
      return;
    }
    Map<Map<String, String>, ArrayNode> streams = new LinkedHashMap<>();
    for (LogEntry e : pending) {
      ArrayNode value = JSON.createArrayNode();
      value.add(Long.toString(e.timestampNanos())).add(e.line());
      if (!e.metadata().isEmpty()) {
        value.add(JSON.valueToTree(new LinkedHashMap<>(e.metadata())));
      }
      streams
          .computeIfAbsent(new LinkedHashMap<>(e.labels()), l -> JSON.createArrayNode())
          .add(value);
    }
    ObjectNode body = JSON.createObjectNode();
    ArrayNode list = body.putArray("streams");
    streams.forEach(
        (labels, values) -> {
          ObjectNode s = list.addObject();
          s.set("stream", JSON.valueToTree(labels));
          s.set("values", values);
        });
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(push)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 204) {
        throw new IllegalStateException("Loki answered " + r.statusCode() + ": " + r.body());
      }
    } catch (IOException e) {
      throw new IllegalStateException("push failed", e);
    }
    pending.clear();
  }

  @Override
  public Optional<String> checkpoint(String key) {
    return Optional.ofNullable(committed.get(key));
  }

  @Override
  public boolean stopRequested() {
    return !clock.instant().isBefore(end);
  }

  @Override
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    synchronized (this) {
      waits++;
    }
    try {
      clock.set(advance.advance(timeout));
    } catch (IOException e) {
      throw new IllegalStateException("cannot move the simulated clock", e);
    }
    return stopRequested();
  }

  /** Rows emitted in this process. */
  public synchronized long rows() {
    return rows;
  }

  /** Waits (clock moves) in this process. */
  public synchronized long waits() {
    return waits;
  }
}
