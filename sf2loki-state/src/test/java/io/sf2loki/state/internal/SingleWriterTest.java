package io.sf2loki.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a starting daemon judges another's writer stamp, without I/O: by what it watches on its own
 * clock, so a stamp written by a host whose clock is minutes ahead or behind is neither taken over
 * while its daemon lives nor trusted to lock this one out for ever.
 */
class SingleWriterTest {

  private static final Instant START = Instant.parse("2026-07-01T08:00:00Z");
  private static final String HERE = "s3://bucket/state.json";

  private final ManualClock clock = new ManualClock(START);
  private final SingleWriter writer =
      new SingleWriter(
          clock,
          new WriterLiveness(
              WriterLiveness.HEARTBEAT,
              WriterLiveness.WINDOW,
              WriterLiveness.EXPIRED,
              () -> Duration.between(START, clock.instant()).toNanos(),
              (interval, beat) -> () -> {}));

  private static Map<String, String> stampedAt(Instant heartbeat) {
    return Map.of(WriterStamp.KEY, WriterStamp.of("other", heartbeat, "host-a").raw());
  }

  private String reasonOfAdmitting(Map<String, String> doc) {
    try {
      writer.admit(doc, "host-b", HERE);
      return "admitted";
    } catch (StoreLockedException e) {
      return e.failureClass().reason();
    }
  }

  @Test
  void aStampRoundTripsAndAnOlderSf2lokisBareTokenIsAWriterWithoutHeartbeat() {
    WriterStamp stamp = WriterStamp.of("6f1c", START.plusNanos(1_234_567), "pod-0");
    assertThat(stamp.raw()).isEqualTo("6f1c;heartbeat=2026-07-01T08:00:00.001Z;holder=pod-0");
    assertThat(WriterStamp.parse(stamp.raw())).isEqualTo(stamp);

    WriterStamp bare = WriterStamp.parse("0b9e-uuid");
    assertThat(bare.token()).isEqualTo("0b9e-uuid");
    assertThat(bare.heartbeat()).isEmpty();
  }

  @Test
  void aLiveDaemonWhoseClockIsMinutesBehindIsRecognisedByItsRenewalNotTakenOver() {
    Instant behind = START.minus(Duration.ofMinutes(5)); // looks 5 minutes old here
    assertThat(reasonOfAdmitting(stampedAt(behind))).isEqualTo("store_awaiting_stale_writer");

    clock.advance(WriterLiveness.HEARTBEAT);
    assertThat(reasonOfAdmitting(stampedAt(behind.plus(WriterLiveness.HEARTBEAT))))
        .isEqualTo("store_locked");
  }

  @Test
  void aCrashedDaemonsStampDatedInTheFutureIsTakenOverOnceItStayedUnchangedForTheWindow() {
    Map<String, String> ahead = stampedAt(START.plus(Duration.ofHours(1)));
    assertThat(reasonOfAdmitting(ahead)).isEqualTo("store_awaiting_stale_writer");

    clock.advance(WriterLiveness.WINDOW);
    assertThat(writer.admit(ahead, "host-b", HERE))
        .hasValueSatisfying(
            line ->
                assertThat(line)
                    .contains("took the object over from writer other on host-a")
                    .contains("in the future by this host's clock")
                    .contains("stayed unchanged for 30s"));
  }

  @Test
  void onceSeenRenewingAWriterRefusesEveryLaterStartUntilItGoesStale() {
    assertThat(reasonOfAdmitting(stampedAt(START))).isEqualTo("store_awaiting_stale_writer");
    clock.advance(Duration.ofSeconds(5));
    assertThat(reasonOfAdmitting(stampedAt(START.plusSeconds(5)))).isEqualTo("store_locked");
    clock.advance(Duration.ofSeconds(1));
    assertThat(reasonOfAdmitting(stampedAt(START.plusSeconds(5)))).isEqualTo("store_locked");

    clock.advance(WriterLiveness.WINDOW);
    assertThat(reasonOfAdmitting(stampedAt(START.plusSeconds(5)))).isEqualTo("admitted");
  }

  @Test
  void anObjectWithoutAStampOrWithOursIsAdmittedAtOnce() {
    assertThat(writer.admit(Map.of("a", "1"), "host-b", HERE)).isEqualTo(Optional.empty());
    assertThat(writer.admit(writer.stamp(Map.of()), "host-b", HERE)).isEmpty();
  }
}
