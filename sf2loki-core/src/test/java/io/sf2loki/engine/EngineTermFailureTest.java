package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.ClassifiedFailure;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * A failure of a running term (a source that failed) is answered like one at acquire: the term is
 * given up and, if permanent, counted as an attempt; a term that led for the longest wait first
 * starts a new streak.
 */
class EngineTermFailureTest {

  private static final FailureClass REJECTED =
      FailureClass.permanent("auth_rejected", "the Salesforce token endpoint", "fix the secret");

  /** What a token endpoint's {@code invalid_client} looks like to the engine. */
  private static final class Rejected extends Exception implements ClassifiedFailure {
    private static final long serialVersionUID = 1L;

    Rejected() {
      super("client_credentials token request failed: 400 invalid_client");
    }

    @Override
    public FailureClass failureClass() {
      return REJECTED;
    }
  }

  /** Each term's one source: it runs {@code beforeFailing} with its term's number, then fails. */
  private static TermSources failingSources(AtomicInteger terms, IntConsumer beforeFailing) {
    return () ->
        List.of(
            new Source() {
              @Override
              public String name() {
                return "failing";
              }

              @Override
              public void run(SourceContext ctx) throws Exception {
                beforeFailing.accept(terms.incrementAndGet());
                throw new Rejected();
              }
            });
  }

  @Test
  void aSourceFailingPermanentlyEndsTheEngineAfterItsAttemptsEachOnAFreshTerm() throws Exception {
    AtomicInteger terms = new AtomicInteger();
    try (EngineUnderTest run =
        new EngineUnderTest(
                new ScriptedStore(),
                EngineUnderTest.FAST,
                failingSources(terms, n -> {}),
                () -> 0L) // no term ever leads long enough to end the streak
            .start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure()).isEqualTo(REJECTED);
                assertThat(f.attempts()).isEqualTo(3);
              });
      assertThat(terms).hasValue(3);
      assertThat(run.coordinators.releases()).isEqualTo(3);
      assertThat(run.registry.get("sf2loki_leader").gauge().value()).isZero();
    }
  }

  @Test
  void aTermThatLedForTheLongestWaitStartsANewStreak() throws Exception {
    AtomicLong now = new AtomicLong();
    AtomicInteger terms = new AtomicInteger();
    FailurePolicy twice = new FailurePolicy(2, Duration.ofMillis(1), Duration.ofMillis(4));
    IntConsumer secondTermLeadsLong =
        n -> {
          if (n == 2) {
            now.addAndGet(Duration.ofMillis(4).toNanos());
          }
        };
    try (EngineUnderTest run =
        new EngineUnderTest(
                new ScriptedStore(), twice, failingSources(terms, secondTermLeadsLong), now::get)
            .start()) {
      EngineOutcome outcome = run.outcome();

      assertThat(terms).as("without the reset the second term's failure would end it").hasValue(3);
      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class, f -> assertThat(f.attempts()).isEqualTo(2));
      assertThat(run.failures("permanent", "auth_rejected")).isEqualTo(3);
    }
  }
}
