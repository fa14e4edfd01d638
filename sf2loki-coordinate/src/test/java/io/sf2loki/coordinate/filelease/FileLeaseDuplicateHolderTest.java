package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes configured with one explicit holder id: each writes its own instance token, so
 * neither takes the other's lease for its own and a release never expires the other's live lease
 * (that the second refuses to run is a rule of the tck's {@code LeaseCoordinatorContract}).
 */
class FileLeaseDuplicateHolderTest {

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

  private Contender start(String holder) {
    Contender c = Contender.start(fx.time, holder, fx.coordinator(holder, Optional.empty()));
    running.add(c);
    return c;
  }

  private void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), STEP)).isTrue();
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
