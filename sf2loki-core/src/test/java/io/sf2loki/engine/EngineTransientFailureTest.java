package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A transient failure gives the term back, backs off and campaigns again for as long as it lasts,
 * counted by reason and shown in the status, and the engine leads again once it is gone.
 */
class EngineTransientFailureTest {

  @Test
  void theEngineBacksOffAndLeadsAgainOnceTheStoreAnswers() throws Exception {
    ScriptedStore store =
        new ScriptedStore().failClaims(4, new StoreUnavailableException("s3: 503 SlowDown"));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .as("the fifth term ran (no sources: finished)")
          .isInstanceOf(EngineOutcome.Finished.class);
      assertThat(store.claims).hasValue(5);
      assertThat(run.coordinators.releases()).isEqualTo(5);
    }
  }

  @Test
  void transientFailuresAreCountedByKindAndReason() throws Exception {
    ScriptedStore store =
        new ScriptedStore()
            .failClaims(2, new StoreUnavailableException("503"))
            .failClaims(
                1,
                new StoreLockedException(
                    "lock busy", null, FailureClass.transientFailure("store_locked", "/s")));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      run.outcome();

      assertThat(run.failures("transient", "store_unavailable")).isEqualTo(2);
      assertThat(run.failures("transient", "store_locked")).isEqualTo(1);
    }
  }

  @Test
  void transientFailuresNeverEndTheEngine() throws Exception {
    ScriptedStore store = new ScriptedStore().failClaims(10, new StoreUnavailableException("503"));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.failures("transient", "store_unavailable"))
          .as("more failures in a row than permanent ones may have")
          .isEqualTo(10);
    }
  }

  @Test
  void whileBackingOffTheStatusNamesTheFailureAndAStopEndsTheWait() throws Exception {
    ScriptedStore store =
        new ScriptedStore().failEveryClaim(new StoreUnavailableException("connection refused"));
    FailurePolicy slow = new FailurePolicy(3, Duration.ofHours(1), Duration.ofHours(1));
    try (EngineUnderTest run = new EngineUnderTest(store, slow).start()) {
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> run.engine.status() instanceof EngineStatus.BackingOff);
      EngineStatus.BackingOff backingOff = (EngineStatus.BackingOff) run.engine.status();
      assertThat(backingOff.failure())
          .isEqualTo(FailureClass.transientFailure("store_unavailable", "memory://scripted"));
      assertThat(backingOff.failures()).isEqualTo(1);
      assertThat(backingOff.pause()).isBetween(Duration.ofMinutes(30), Duration.ofHours(1));

      run.stop();

      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Stopped.class);
    }
  }

  @Test
  void aTransientCampaignFailureBacksOffAndTheNextCampaignLeads() throws Exception {
    try (EngineUnderTest run = new EngineUnderTest(new ScriptedStore(), EngineUnderTest.FAST)) {
      run.coordinators.failNextCampaign(
          new CoordinatorException(
              "cannot read lease default/sf2loki-leader (HTTP 503)",
              null,
              FailureClass.transientFailure("lease_unavailable", "default/sf2loki-leader")));
      run.start();

      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.coordinators.events)
          .containsExactly("campaign", "campaign", "acquire 1", "release 1");
      assertThat(run.failures("transient", "lease_unavailable")).isEqualTo(1);
    }
  }
}
