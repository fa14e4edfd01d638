package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The running-daemon guard: the CLI must not silently fight a live leader (invariant 7). */
class StateCommandGuardTest {

  @TempDir Path dir;

  private static final String DOC =
      "{\"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"__fence_epoch__\": \"4\"}";

  @Test
  void setUnderFileLeaseIsRefusedAndLeavesTheStateFileByteIdentical() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    f.writeState(DOC);
    byte[] before = f.stateBytes();
    CliRun run = f.run("state", "set", "apexlog", "2026-08-01T00:00:00.000+0000");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(f.stateBytes()).isEqualTo(before);
    assertThat(run.err())
        .contains("coordinate.type is file_lease")
        .contains("does not hold the state lock")
        .contains("Stop the leader and the standby")
        .contains("--force")
        .doesNotContain("\tat ");
  }

  @Test
  void setUnderFileLeaseWithForceWritesTheKeyAndKeepsTheEpoch() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    f.writeState(DOC);
    CliRun run = f.run("state", "set", "apexlog", "2026-08-01T00:00:00.000+0000", "--force");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("sf2loki: set apexlog = 2026-08-01T00:00:00.000+0000");
    CliRun show = f.run("state", "show", "--force");
    assertThat(show.out())
        .contains("apexlog\t2026-08-01T00:00:00.000+0000")
        .contains("fence epoch: 4");
  }

  @Test
  void showAndDeleteUnderK8sLeaseAreRefusedWithoutForce() throws Exception {
    StateFixture f = StateFixture.k8sLease(dir);
    f.writeState(DOC);
    byte[] before = f.stateBytes();
    for (String[] args : new String[][] {{"state", "show"}, {"state", "delete", "apexlog"}}) {
      CliRun run = f.run(args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(1);
      assertThat(run.err()).contains("coordinate.type is k8s_lease").contains("--force");
    }
    assertThat(f.stateBytes()).isEqualTo(before);
  }

  @Test
  void refusalNamesTheHolderAndExpiryOfALiveLease() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    Instant expires = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    f.writeLease("{\"holder\": \"node-a\", \"expires_at\": \"" + expires + "\", \"epoch\": 6}");
    CliRun run = f.run("state", "show");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("held by node-a until " + expires).contains("epoch 6");
  }

  @Test
  void refusalCallsAnExpiredLeaseStale() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    f.writeLease(
        "{\"holder\": \"node-a\", \"expires_at\": \"2020-01-01T00:00:00Z\", \"epoch\": 6}");
    CliRun run = f.run("state", "show");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("looks stale").contains("node-a").contains("refusing anyway");
  }

  @Test
  void refusalCallsAnAbsentLeaseStale() throws Exception {
    CliRun run = StateFixture.fileLease(dir).run("state", "show");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("does not exist").contains("looks stale");
  }

  @Test
  void refusalCallsACorruptLeaseStale() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    f.writeLease("{not json");
    CliRun run = f.run("state", "show");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("looks stale");
  }

  @Test
  void anHaStyleStoreHoldsNoLockSoOnlyTheCoordinatorCheckCanRefuse() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState(DOC);
    try (CheckpointStore daemonLike = open(f, false)) {
      daemonLike.commit(Map.of("apexlog", "2026-07-02T00:00:00.000+0000"), Fence.NONE);
      CliRun run = f.run("state", "set", "apexlog", "2026-09-01T00:00:00.000+0000");
      assertThat(run.exitCode()).as(run.err()).isZero();
    }
  }

  @Test
  void underNoopALockHoldingStoreMakesSetFailAndLeavesTheFileUnchanged() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState(DOC);
    try (CheckpointStore daemon = open(f, true)) {
      daemon.loadAll();
      daemon.commit(Map.of("apexlog", "2026-07-02T00:00:00.000+0000"), Fence.NONE);
      byte[] before = f.stateBytes();
      CliRun run = f.run("state", "set", "apexlog", "2026-09-01T00:00:00.000+0000");
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err()).contains("Stop the running daemon first, or pass --force");
      assertThat(f.stateBytes()).isEqualTo(before);
    }
  }

  private static CheckpointStore open(StateFixture f, boolean singleInstance) {
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(StateCommandGuardTest.class.getClassLoader(), Map.of())
                .load(Optional.of(f.config)),
            StateCommandGuardTest.class.getClassLoader());
    return config
        .store()
        .create(new StoreEnvironment(singleInstance, Clock.systemUTC(), new SimpleMeterRegistry()));
  }
}
