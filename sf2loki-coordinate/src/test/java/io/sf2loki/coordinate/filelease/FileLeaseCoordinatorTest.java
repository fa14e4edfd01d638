package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.testkit.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acquire, renew, surrender and release of one file-lease contender, including beside another
 * process configured with the same holder id: each writes its own instance token, so neither renews
 * the other's lease as its own and a release never expires the other's live lease.
 */
class FileLeaseCoordinatorTest {

  private static final Duration STEP = Duration.ofMillis(500);

  @TempDir Path dir;
  FileLeaseFixture fx;
  final List<Contender> running = new ArrayList<>();

  @BeforeEach
  void setUp() {
    fx = new FileLeaseFixture(dir);
    fx.time.join();
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.time.leave();
    for (Contender c : running) {
      c.stop();
    }
  }

  private Contender start(String holder, FileLeaseStorage storage) {
    Contender c =
        Contender.start(fx.time, holder, fx.coordinator(storage, holder, Optional.empty()));
    running.add(c);
    return c;
  }

  private Contender start(String holder) {
    return start(holder, new FileLeaseFile(fx.lease));
  }

  private void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), STEP)).isTrue();
  }

  @Test
  void acquiresAnAbsentLeaseAndWritesTheDocument() throws Exception {
    Contender a = start("a");
    await(a::isLeading);

    FileLeaseDocument doc = fx.document();
    assertThat(doc.holder()).isEqualTo("a");
    assertThat(doc.epoch()).isEqualTo(1);
    assertThat(doc.expiresAt()).isAfter(fx.time.instant());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fx.lease)))
        .isEqualTo("rw-------");
  }

  @Test
  void tempFilesOfACrashedLeaseWriterAreRemovedAtStartAndALiveWritersAreKept() throws Exception {
    Path crashed = Files.createFile(dir.resolve(".leader.lease.crashed.tmp"));
    Path live = Files.createFile(dir.resolve(".leader.lease.live.tmp"));
    Files.setLastModifiedTime(crashed, FileTime.from(fx.time.instant().minusSeconds(120)));
    Files.setLastModifiedTime(live, FileTime.from(fx.time.instant()));

    Contender a = start("a");
    await(a::isLeading);

    assertThat(crashed).doesNotExist();
    assertThat(live).exists();
  }

  @Test
  void renewalsMoveExpiryAndKeepTheEpoch() throws Exception {
    Contender a = start("a");
    await(a::isLeading);
    Instant firstExpiry = fx.document().expiresAt();

    fx.time.sleep(Duration.ofMinutes(2));

    assertThat(a.isLeading()).isTrue();
    assertThat(fx.document().expiresAt()).isAfter(firstExpiry.plusSeconds(60));
    assertThat(fx.document().epoch()).isEqualTo(1);
    assertThat(a.listener().acquired()).hasSize(1);
  }

  @Test
  void liveForeignLeaseIsNotContested() throws Exception {
    fx.write(new FileLeaseDocument("other", fx.time.instant().plusSeconds(60), 4));
    Contender a = start("a");

    fx.time.sleep(Duration.ofSeconds(55));
    assertThat(a.isLeading()).isFalse();
    await(a::isLeading);
    assertThat(a.currentTerm().orElseThrow().epoch()).isEqualTo(5);
  }

  @Test
  void unreadableLeaseIsNeverContestedItsCampaignFailsTransiently() throws Exception {
    FaultyLeaseStorage storage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    storage.readsFail(true);
    Contender a = start("a", storage);
    running.remove(a);
    fx.time.leave(); // the contender's time runs on alone while this thread waits for it

    assertThatThrownBy(() -> a.participant().join(TestTiming.seconds(10)))
        .isInstanceOfSatisfying(
            CoordinatorException.class,
            e ->
                assertThat(e.failureClass())
                    .isEqualTo(
                        FailureClass.transientFailure("lease_unavailable", fx.lease.toString())));
    assertThat(a.listener().events()).isEmpty();
    assertThat(Files.exists(fx.lease)).isFalse();
  }

  @Test
  void foreignTakeoverEndsTheTermBeforeOnLose() throws Exception {
    Contender a = start("a");
    await(a::isLeading);
    Term term = a.currentTerm().orElseThrow();

    fx.write(new FileLeaseDocument("intruder", fx.time.instant().plusSeconds(30), 9));
    await(() -> a.listener().held().isEmpty());

    RecordingLeadershipListener.Event lose = a.listener().events().get(1);
    assertThat(lose.kind()).isEqualTo(Kind.LOSE);
    assertThat(lose.currentDuringCall()).isFalse();
    assertThat(term.isCurrent()).isFalse();
    assertThat(fx.document().holder()).isEqualTo("intruder");
  }

  @Test
  void gracefulStopDrainsWhileCurrentThenReleases() throws Exception {
    Contender a = start("a");
    await(a::isLeading);
    running.remove(a);

    a.requestStop();
    fx.time.leave();
    a.participant().join(TestTiming.seconds(10));
    fx.time.join();

    RecordingLeadershipListener.Event lose = a.listener().events().get(1);
    assertThat(lose.kind()).isEqualTo(Kind.LOSE);
    assertThat(lose.currentDuringCall()).as("drain commits while holding").isTrue();
    assertThat(lose.term().isCurrent()).isFalse();
    assertThat(fx.document().isExpiredAt(fx.time.instant())).as("released").isTrue();
    assertThat(fx.document().holder()).isEqualTo("a");
  }

  @Test
  void standbyTakesOverWithinOneRenewIntervalAfterRelease() throws Exception {
    Contender a = start("a");
    await(a::isLeading);
    Contender b = start("b");
    fx.time.sleep(Duration.ofSeconds(3));
    running.remove(a);
    a.requestStop();
    fx.time.leave();
    a.participant().join(TestTiming.seconds(10));
    fx.time.join();
    long released = fx.time.nanos();

    await(b::isLeading);

    assertThat(Duration.ofNanos(fx.time.nanos() - released))
        .isLessThanOrEqualTo(FileLeaseFixture.RENEW.plus(fx.config.verifyPause()).plus(STEP));
    assertThat(b.currentTerm().orElseThrow().epoch()).isEqualTo(2);
  }

  @Test
  void failingWritesSurrenderOneIoTimeoutBeforeTheLeaseExpires() throws Exception {
    FaultyLeaseStorage storage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    Contender a = start("a", storage);
    await(a::isLeading);
    Instant expiry = fx.document().expiresAt();
    storage.writesFail(true);

    await(() -> a.listener().held().isEmpty());

    assertThat(fx.time.instant())
        .as("after a retried renewal, and before a standby may claim the lease")
        .isAfter(expiry.minus(FileLeaseFixture.TTL).plus(FileLeaseFixture.RENEW))
        .isBeforeOrEqualTo(expiry.minus(fx.config.ioTimeout()));
    running.remove(a);
    fx.time.leave(); // the contender's time runs on alone while this thread waits for it
    assertThatThrownBy(() -> a.participant().join(TestTiming.seconds(10)))
        .as("the next campaign's claim fails, transiently, for the engine to back off")
        .isInstanceOfSatisfying(
            CoordinatorException.class,
            e -> assertThat(e.failureClass().reason()).isEqualTo("lease_unavailable"));
  }

  @Test
  void termLapsesOnItsOwnWhenTheLeaderPausesPastTheTtl() throws Exception {
    FaultyLeaseStorage storage = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    Contender a = start("a", storage);
    await(a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    storage.pauseBeforeNextWrite(Duration.ofSeconds(45));

    await(() -> !term.isCurrent());

    assertThat(a.listener().held())
        .as("onLose not delivered yet: the leader is paused")
        .isPresent();
    await(() -> a.listener().held().isEmpty());
    assertThat(a.listener().acquired()).hasSize(1);
  }

  @Test
  void aLeaseRewrittenByAnotherProcessWithOurHolderIdIsNotRenewedAsOurs() throws Exception {
    Contender a = start("sf2loki-a");
    await(a::isLeading);
    long epoch = a.currentTerm().orElseThrow().epoch();

    fx.write(
        new FileLeaseDocument(
            "sf2loki-a", fx.time.instant().plusSeconds(30), epoch, Optional.of("twin")));
    await(() -> a.listener().held().isEmpty());

    assertThat(fx.document().instance()).contains("twin");
  }

  @Test
  void releaseNeverExpiresALeaseCarryingAnotherProcesssToken() throws Exception {
    Contender a = start("sf2loki-a");
    await(a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    FileLeaseDocument twins =
        new FileLeaseDocument(
            "sf2loki-a", fx.time.instant().plusSeconds(30), term.epoch(), Optional.of("twin"));
    fx.write(twins);

    ((FileLeaseCoordinator) a.coordinator()).release((LeaseTerm) term);

    assertThat(fx.document()).isEqualTo(twins);
  }

  @Test
  void aCrashedPredecessorsLeaseWithOurHolderIdIsTakenOnceItExpires() throws Exception {
    fx.write(
        new FileLeaseDocument(
            "sf2loki-a", fx.time.instant().plusSeconds(20), 3, Optional.of("crashed")));
    Contender restarted = start("sf2loki-a");

    await(restarted::isLeading);

    assertThat(restarted.currentTerm().orElseThrow().epoch()).isEqualTo(4);
    assertThat(fx.document().instance()).isPresent().get().isNotEqualTo("crashed");
  }
}
