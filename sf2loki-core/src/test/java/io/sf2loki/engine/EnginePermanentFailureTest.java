package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreAccessDeniedException;
import org.junit.jupiter.api.Test;

/**
 * A permanent failure, at acquire, of a campaign or of a term, is tried a bounded number of times,
 * each time giving the lease back, and then ends the engine with the resource and the fix.
 */
class EnginePermanentFailureTest {

  private static final FailureClass DENIED =
      FailureClass.permanent("store_access_denied", "s3://b/state.json", "grant s3:PutObject");

  @Test
  void aPermanentFailureAtAcquireEndsTheEngineAtItsLastAttempt() throws Exception {
    ScriptedStore store =
        new ScriptedStore()
            .failEveryClaim(new StoreAccessDeniedException("PutObject answered 403", null, DENIED));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome).isInstanceOf(EngineOutcome.Failed.class);
      EngineOutcome.Failed failed = (EngineOutcome.Failed) outcome;
      assertThat(failed.failure()).isEqualTo(DENIED);
      assertThat(failed.attempts()).isEqualTo(3);
      assertThat(failed.describe())
          .isEqualTo(
              "s3://b/state.json: PutObject answered 403 (store_access_denied, permanent, 3"
                  + " attempts); fix: grant s3:PutObject");
      assertThat(store.claims).hasValue(3);
      assertThat(run.failures("permanent", "store_access_denied")).isEqualTo(3);
    }
  }

  @Test
  void everyFailedAttemptGivesTheLeaseBackBeforeTheNext() throws Exception {
    ScriptedStore store =
        new ScriptedStore().failEveryClaim(new StoreAccessDeniedException("403", null, DENIED));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      run.outcome();

      assertThat(run.coordinators.events)
          .containsExactly(
              "campaign",
              "acquire 1",
              "release 1",
              "campaign",
              "acquire 2",
              "release 2",
              "campaign",
              "acquire 3",
              "release 3");
    }
  }

  @Test
  void aPermanentCampaignFailureEndsTheEngineAfterItsAttempts() throws Exception {
    FailureClass unwritable =
        FailureClass.permanent("lease_access_denied", "/shared/leader.lease", "chmod");
    try (EngineUnderTest run = new EngineUnderTest(new ScriptedStore(), EngineUnderTest.FAST)) {
      for (int i = 0; i < 3; i++) {
        run.coordinators.failNextCampaign(
            new CoordinatorException("cannot write file lease", null, unwritable));
      }
      run.start();

      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class, f -> assertThat(f.failure()).isEqualTo(unwritable));
      assertThat(run.coordinators.campaigns()).isEqualTo(3);
      assertThat(run.coordinators.events).doesNotContain("acquire 1");
    }
  }

  @Test
  void aFailureNothingClassifiedIsPermanentAndUnexpected() throws Exception {
    ScriptedStore store = new ScriptedStore().failEveryClaim(new IllegalStateException("a bug"));
    try (EngineUnderTest run = new EngineUnderTest(store, EngineUnderTest.FAST).start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo(FailureClass.UNEXPECTED);
                assertThat(f.failure().resource()).isEmpty();
                assertThat(f.cause()).hasMessage("a bug");
              });
      assertThat(run.failures("permanent", "unexpected")).isEqualTo(3);
    }
  }
}
