package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.coordinate.support.HintingBalance;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.tck.Contender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** How long a file_lease standby the shard quota refused waits before it asks again. */
@Timeout(60)
class FileLeaseQuotaHintTest {

  @TempDir Path dir;
  FileLeaseFixture fx;
  Contender contender;

  @AfterEach
  void stop() throws Exception {
    fx.time.leave();
    if (contender != null) {
      contender.stop();
    }
  }

  private List<Duration> asked(Optional<Duration> hint) throws Exception {
    fx = new FileLeaseFixture(dir);
    HintingBalance balance = new HintingBalance(fx.time, 1, hint);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
                fx.time.clock(), fx.time.ticker(), Optional.empty(), fx.metrics, Map.of())
            .withShard("emea", balance);
    fx.time.join();
    long start = fx.time.nanos();
    contender =
        Contender.start(
            fx.time,
            "a",
            new FileLeaseCoordinator(
                new FileLeaseFile(fx.lease), "a", fx.config, env, fx.time::sleep));
    fx.time.awaitCondition(contender::isLeading, Duration.ofMinutes(1), Duration.ofMillis(10));
    return balance.askedAtNanos().stream().map(t -> Duration.ofNanos(t - start)).toList();
  }

  @Test
  void aRefusedStandbyAsksAgainWhenTheQuotaSaysRoomMayOpen() throws Exception {
    assertThat(asked(Optional.of(Duration.ofSeconds(2))))
        .containsExactly(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void aRefusedStandbyWithoutAHintAsksAgainAfterARenewInterval() throws Exception {
    assertThat(asked(Optional.empty())).containsExactly(Duration.ZERO, FileLeaseFixture.RENEW);
  }

  @Test
  void aHintLaterThanTheNextPollDoesNotDelayIt() throws Exception {
    assertThat(asked(Optional.of(Duration.ofHours(1))))
        .containsExactly(Duration.ZERO, FileLeaseFixture.RENEW);
  }
}
