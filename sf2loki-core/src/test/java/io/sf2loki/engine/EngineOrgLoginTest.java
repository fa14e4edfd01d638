package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.OrgIdentity;
import io.sf2loki.spi.OrgLoginException;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The engine logs its org sessions in before it campaigns: a failed login is classified, counted
 * and backed off like a failed campaign, a permanent one ends the engine after its attempts, and a
 * stop interrupts a login that hangs.
 */
class EngineOrgLoginTest {

  private static final OrgIdentity ORG =
      new OrgIdentity("00D000000000001AAA", URI.create("https://acme.my.salesforce.com"));
  private static final FailureClass UNAVAILABLE =
      FailureClass.transientFailure("auth_unavailable", "the Salesforce token endpoint");
  private static final FailureClass REJECTED =
      FailureClass.permanent("auth_rejected", "the Salesforce token endpoint", "fix the secret");

  /** A session whose first {@code failures} logins fail with {@code failure}. */
  private static final class ScriptedSession implements OrgSession {
    final AtomicInteger logins = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();
    private final int failures;
    private final FailureClass failure;
    private final CountDownLatch hang;

    ScriptedSession(int failures, FailureClass failure, CountDownLatch hang) {
      this.failures = failures;
      this.failure = failure;
      this.hang = hang;
    }

    @Override
    public String loginHost() {
      return "https://acme.my.salesforce.com";
    }

    @Override
    public OrgIdentity login() throws OrgLoginException, InterruptedException {
      hang.await();
      if (logins.incrementAndGet() <= failures) {
        throw new OrgLoginException("token request failed", failure, null);
      }
      return ORG;
    }

    @Override
    public Optional<OrgIdentity> identity() {
      return Optional.empty();
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  private static EngineUnderTest engine(OrgSession session) {
    return new EngineUnderTest(
        new ScriptedStore(), EngineUnderTest.FAST, List::of, Ticker.SYSTEM, List.of(session));
  }

  @Test
  void aTransientLoginFailureIsBackedOffAndTheEngineCampaignsOnlyOnceLoggedIn() throws Exception {
    ScriptedSession session = new ScriptedSession(5, UNAVAILABLE, new CountDownLatch(0));
    try (EngineUnderTest run = engine(session).start()) {
      // no sources: the one term finishes at once
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);

      assertThat(session.logins).hasValue(6);
      assertThat(run.failures("transient", "auth_unavailable")).isEqualTo(5);
      assertThat(run.coordinators.campaigns()).isEqualTo(1);
    }
    assertThat(session.closed).isTrue();
  }

  @Test
  void aPermanentLoginFailureEndsTheEngineAfterItsAttemptsWithoutCampaigning() throws Exception {
    ScriptedSession session = new ScriptedSession(100, REJECTED, new CountDownLatch(0));
    try (EngineUnderTest run = engine(session).start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure()).isEqualTo(REJECTED);
                assertThat(f.attempts()).isEqualTo(3);
              });
      assertThat(run.coordinators.campaigns()).isZero();
    }
  }

  @Test
  void whileALoginFailsTheStatusNamesItsReason() throws Exception {
    ScriptedSession session = new ScriptedSession(1, UNAVAILABLE, new CountDownLatch(0));
    FailurePolicy slow =
        new FailurePolicy(3, java.time.Duration.ofMinutes(1), java.time.Duration.ofMinutes(1));
    try (EngineUnderTest run =
        new EngineUnderTest(new ScriptedStore(), slow, List::of, Ticker.SYSTEM, List.of(session))
            .start()) {
      await()
          .atMost(TestTiming.seconds(20))
          .until(() -> run.engine.status() instanceof EngineStatus.BackingOff);

      assertThat(((EngineStatus.BackingOff) run.engine.status()).failure()).isEqualTo(UNAVAILABLE);
      assertThat(run.coordinators.campaigns()).isZero();
    }
  }

  @Test
  void aStopInterruptsALoginThatHangs() throws Exception {
    ScriptedSession session = new ScriptedSession(0, UNAVAILABLE, new CountDownLatch(1));
    try (EngineUnderTest run = engine(session).start()) {
      run.stop();

      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Stopped.class);
      assertThat(session.logins).hasValue(0);
      assertThat(run.coordinators.campaigns()).isZero();
    }
  }
}
