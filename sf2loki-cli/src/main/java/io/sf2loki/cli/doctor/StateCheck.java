package io.sf2loki.cli.doctor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreException;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.ConditionalWriteProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code state}: the live document is read (and must parse), never written; then a doctor-owned
 * probe document on the same backend ({@link StoreProbes}) is written, read back and removed. On
 * the file store the probe also takes the sidecar lock; on S3 and GCS the conditional-write probe
 * must see 412 for a stale precondition (a FAIL under a lease coordinator, a WARN under noop).
 */
final class StateCheck implements Check {

  static final String KEY = "doctor:probe";

  @Override
  public String name() {
    return "state";
  }

  @Override
  public CheckResult run(DoctorContext context) throws IOException {
    Sf2LokiConfig config = context.config();
    String live;
    try (CheckpointStore store = config.store().create(environment(context, false))) {
      Map<String, String> document = store.loadAll();
      live =
          store.location()
              + " readable ("
              + document.keySet().stream().filter(k -> !CheckpointToken.isReserved(k)).count()
              + " checkpoint(s), fence epoch "
              + document.getOrDefault(CheckpointToken.RESERVED_EPOCH_KEY, "none")
              + ")";
    } catch (StoreException e) {
      return failure(e);
    }
    Optional<io.sf2loki.spi.CheckpointStoreProvider.Factory> probe =
        StoreProbes.probeFactory(config, context.providers());
    if (probe.isEmpty()) {
      return new CheckResult.Warn(
          live + "; no write probe for store type " + config.storeType(),
          "verify by hand that sf2loki may write the document");
    }
    try (CheckpointStore store = probe.get().create(environment(context, true))) {
      return probe(context, store, live);
    } catch (StoreException e) {
      return failure(e);
    }
  }

  private static StoreEnvironment environment(DoctorContext context, boolean singleInstance) {
    return new StoreEnvironment(singleInstance, context.clock(), new SimpleMeterRegistry());
  }

  private CheckResult probe(DoctorContext context, CheckpointStore store, String live)
      throws IOException {
    Optional<CheckResult> unsafe = Optional.empty();
    if (store instanceof ConditionalCheckpointStore conditional) {
      ConditionalWriteProbe.Result result = conditional.probeConditionalWrites();
      unsafe = verdict(result, context.config().isCoordinated());
      if (unsafe.filter(CheckResult.Fail.class::isInstance).isPresent()) {
        conditional.discard();
        return unsafe.get();
      }
    }
    String value = context.clock().instant().toString();
    store.commit(Map.of(KEY, value), Fence.NONE);
    if (!store.loadAll().getOrDefault(KEY, "").equals(value)) {
      return new CheckResult.Fail(
          store.location() + ": a probe write did not read back",
          "check the backend's consistency");
    }
    store.delete(Set.of(KEY), Fence.NONE);
    String where = store.location();
    if (store instanceof ConditionalCheckpointStore conditional) {
      conditional.discard();
    } else if (store instanceof FileCheckpointStore file) {
      Path lock = file.lockPath();
      store.close();
      Files.deleteIfExists(Path.of(where));
      Files.deleteIfExists(lock);
    }
    String detail = live + "; probe " + where + " written, locked, read back and removed";
    return unsafe.orElse(new CheckResult.Pass(detail));
  }

  private static Optional<CheckResult> verdict(
      ConditionalWriteProbe.Result result, boolean coordinated) {
    String fix =
        "use an endpoint that honours If-Match / If-None-Match (AWS S3, a current MinIO, GCS)";
    if (result instanceof ConditionalWriteProbe.Ignored ignored) {
      return Optional.of(
          coordinated
              ? new CheckResult.Fail(ignored.describe(), fix)
              : new CheckResult.Warn(ignored.describe(), fix + ", or accept it under noop"));
    }
    if (result instanceof ConditionalWriteProbe.Inconclusive inconclusive) {
      return Optional.of(
          new CheckResult.Warn(
              inconclusive.describe(), "grant sf2loki write access to the bucket"));
    }
    return Optional.empty();
  }

  private static CheckResult failure(StoreException e) {
    FailureClass failure = e.failureClass();
    String fix =
        failure.isPermanent() && failure.fix() != null && !failure.fix().isBlank()
            ? failure.fix()
            : "check the store is reachable and retry";
    return new CheckResult.Fail(e.getMessage(), fix);
  }
}
