package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.SimulatedTime;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A leader whose Lease replaces fail retries them, several times, and steps down only when no retry
 * can start before its term lapses. On the in-memory Lease API and simulated time whose waits
 * overshoot by 1 to 5 ms, as a real sleep does: retries on the renew_interval grid land exactly on
 * the lapse at the defaults (lease_duration 3 × renew_interval).
 */
class K8sLeaseRenewalRetryTest {

  private final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));
  private final K8sLeaseConfig config =
      new K8sLeaseConfig(
          "default",
          "sf2loki-leader",
          Optional.empty(),
          Duration.ofSeconds(30),
          Duration.ofSeconds(10),
          Optional.empty());
  private final FakeLeaseApiServer server = new FakeLeaseApiServer();
  private final FaultyTransport transport = new FaultyTransport(time);
  private final RecordingLeadershipListener listener = new RecordingLeadershipListener();
  private final AtomicLong waits = new AtomicLong();
  private final List<Put> puts = new CopyOnWriteArrayList<>();
  private Contender leader;

  /** A replace of the Lease: when it started, whether it succeeded, whether a term was held. */
  private record Put(long atNanos, boolean ok, boolean leading) {}

  /** Records every PUT, then passes it through the faults. */
  private Response record(Interceptor.Chain chain) throws IOException {
    if (!"PUT".equals(chain.request().method())) {
      return transport.intercept(chain);
    }
    long at = time.nanos();
    boolean leading = listener.held().isPresent();
    try {
      Response response = transport.intercept(chain);
      puts.add(new Put(at, response.isSuccessful(), leading));
      return response;
    } catch (IOException e) {
      puts.add(new Put(at, false, leading));
      throw e;
    }
  }

  private boolean sleep(Duration d, StopSignal stop) throws InterruptedException {
    return time.sleep(d.plusMillis(1 + waits.getAndIncrement() % 5), stop);
  }

  @BeforeEach
  void setUp() throws Exception {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), Optional.empty(), new SimpleMeterRegistry(), Map.of());
    time.join();
    leader =
        Contender.start(
            time,
            "a",
            new K8sLeaseCoordinator(server.api(this::record), "a", config, env, this::sleep),
            listener);
    assertThat(time.awaitCondition(leader::isLeading, Duration.ofMinutes(3), Duration.ofSeconds(1)))
        .isTrue();
  }

  @AfterEach
  void tearDown() throws Exception {
    leader.requestStop();
    leader.awaitEnded(time); // its campaign may fail at the transport: a transient failure
    time.leave();
  }

  @Test
  void failingRenewalsAreRetriedSeveralTimesAndStepDownOnlyWhenNoRetryFitsBeforeTheLapse()
      throws Exception {
    Term term = leader.currentTerm().orElseThrow();
    time.sleep(Duration.ofSeconds(15)); // a renewal or two first
    transport.downFor(Duration.ofMinutes(1));

    assertThat(
            time.awaitCondition(
                () -> listener.held().isEmpty(), Duration.ofMinutes(3), Duration.ofSeconds(1)))
        .isTrue();

    long lastGood = puts.stream().filter(Put::ok).mapToLong(Put::atNanos).max().orElseThrow();
    long lapse = lastGood + config.leaseDuration().toNanos();
    assertThat(puts.stream().filter(p -> p.leading() && !p.ok()).toList())
        .as("the failed renewal and at least three retries, all before the term lapsed")
        .hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(p -> assertThat(p.atNanos()).isLessThan(lapse));
    assertThat(term.lossReason())
        .hasValueSatisfying(
            r -> assertThat(r).contains("renewal failing").doesNotContain("paused"));
  }
}
