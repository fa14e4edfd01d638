package io.sf2loki.connect;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.engine.FailurePolicy;
import io.sf2loki.engine.ShardSources;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * Runs the sources of the orgs {@code taskConfigs} gave it ({@link OrgRun}) and hands their entries
 * to Connect, which produces them and commits their offsets after the producer's acks: a position
 * is committed only once every record before it on its key is in Kafka, as the daemon commits only
 * after Loki accepted (invariant 1).
 */
public final class Sf2LokiSourceTask extends SourceTask {

  /** How long one poll waits for the first record; Connect polls again at once. */
  private static final Duration POLL_WAIT = Duration.ofSeconds(1);

  private final List<OrgRun> runs = new ArrayList<>();
  private RecordQueue queue;
  private Duration grace = Duration.ofSeconds(10);
  private Ticker ticker = Ticker.SYSTEM;

  @Override
  public String version() {
    return BuildInfo.version();
  }

  @Override
  public void start(Map<String, String> props) {
    ConnectorSettings settings = new ConnectorSettings(props);
    Shards shards;
    try {
      shards = settings.bind(getClass().getClassLoader(), ConnectEnvironment.variables());
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    // a transaction must not end inside a unit: exactly-once keeps each unit's records together
    queue = new RecordQueue(settings.pollMaxRecords(), context.transactionContext() != null);
    for (String org : settings.taskOrgs()) {
      Shard shard =
          shards.multiOrg() ? shards.select(Optional.of(org)) : shards.select(Optional.empty());
      Sf2LokiConfig config = shard.config();
      grace = config.service().shutdownGrace();
      EngineEnvironment environment = ConnectEnvironment.forTask(org);
      ticker = environment.ticker();
      ShardSources sources = ConfiguredEngine.sources(shard, environment);
      FailurePolicy policy =
          new FailurePolicy(
              config.service().permanentFailureAttempts(),
              config.service().failureBackoffMin(),
              config.service().failureBackoffMax());
      runs.add(
          new OrgRun(
              org,
              sources,
              policy,
              policy.backoff(environment.random()),
              environment.threads(),
              stop ->
                  new OrgContext(
                      org,
                      settings.topic(),
                      settings.recordFormat(),
                      queue,
                      partition -> context.offsetStorageReader().offset(partition),
                      stop)));
    }
    runs.forEach(OrgRun::start);
  }

  /**
   * The records the sources emitted since the last poll, in emit order; empty after a short wait
   * when there are none.
   *
   * @throws ConnectException once the queue is empty and an org has failed for good
   */
  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    RecordQueue.Polled polled = queue.poll(POLL_WAIT);
    List<SourceRecord> records = polled.records();
    endTransactionAfterLastUnit(polled);
    if (records.isEmpty()) {
      for (OrgRun run : runs) {
        Optional<String> failure = run.failure();
        if (failure.isPresent()) {
          throw new ConnectException(failure.get());
        }
      }
    }
    return records;
  }

  /**
   * Under {@code transaction.boundary=connector} (exactly-once), ends the open transaction at the
   * last record of the poll that ends a source unit: every row the transaction holds is then
   * covered by a position it commits, so a task that takes over after a crash reads none of them
   * again. The records after it, the start of a unit, wait for the next one.
   */
  private void endTransactionAfterLastUnit(RecordQueue.Polled polled) {
    TransactionContext transactions = context.transactionContext();
    if (transactions == null) {
      return;
    }
    if (polled.abortOpenTransaction()) {
      // only an abandoned unit's rows are in it; Connect commits its offsets, which are the
      // position before the unit, so the unit is read again whole
      transactions.abortTransaction();
    } else if (polled.lastUnitEnd() >= 0) {
      transactions.commitTransaction(polled.records().get(polled.lastUnitEnd()));
    }
  }

  /**
   * Stops every org's sources within {@code service.shutdown_grace}. Records still queued were
   * never committed: the next task reads them again from the committed offsets.
   */
  @Override
  public void stop() {
    runs.forEach(OrgRun::requestStop);
    long deadline = ticker.nanoTime() + grace.toNanos();
    try {
      for (OrgRun run : runs) {
        run.await(Duration.ofNanos(deadline - ticker.nanoTime()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
