package io.sf2loki.coordinate.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.SimulatedTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How long a standby the shard quota refused waits before it asks again, on a free lease: when the
 * quota says room may open sooner than the next poll, then; else at the next poll.
 */
@Timeout(60)
public abstract class QuotaHintContract {

  protected final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  private Contender contender;

  /** The backend's renew interval (its standby's poll). */
  protected abstract Duration renewInterval();

  /** A coordinator of a lease nobody holds, on {@link #time}, under {@code environment}. */
  protected abstract Coordinator coordinator(CoordinatorEnvironment environment) throws Exception;

  @AfterEach
  void stop() throws Exception {
    time.leave();
    if (contender != null) {
      contender.stop();
    }
  }

  private List<Duration> asked(Optional<Duration> hint) throws Exception {
    HintingBalance balance = new HintingBalance(time, 1, hint);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
                time.clock(), time.ticker(), Optional.empty(), new SimpleMeterRegistry(), Map.of())
            .withShard("emea", balance);
    time.join();
    long start = time.nanos();
    contender = Contender.start(time, "a", coordinator(env));
    time.awaitCondition(contender::isLeading, Duration.ofMinutes(1), Duration.ofMillis(10));
    return balance.askedAtNanos().stream().map(t -> Duration.ofNanos(t - start)).toList();
  }

  @Test
  void aRefusedStandbyAsksAgainWhenTheQuotaSaysRoomMayOpen() throws Exception {
    assertThat(asked(Optional.of(Duration.ofSeconds(2))))
        .containsExactly(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void aRefusedStandbyWithoutAHintAsksAgainAtItsNextPoll() throws Exception {
    assertThat(asked(Optional.empty())).containsExactly(Duration.ZERO, renewInterval());
  }

  @Test
  void aHintLaterThanTheNextPollDoesNotDelayIt() throws Exception {
    assertThat(asked(Optional.of(Duration.ofHours(1))))
        .containsExactly(Duration.ZERO, renewInterval());
  }
}
