package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.NamedThreadFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLeaseRosterTest {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  @TempDir Path dir;

  final BlockingIo io =
      new BlockingIo(
          "lease-roster", 2, new NamedThreadFactory("roster-io"), new SimpleMeterRegistry());

  @AfterEach
  void closeIo() {
    io.close();
  }

  FileLeaseRoster roster() {
    return new FileLeaseRoster(
        dir.resolve("leader.lease"), FileMode.OWNER_ONLY, io, Duration.ofSeconds(5));
  }

  @Test
  void theRosterLivesBesideTheLeasesNamedAfterThem() {
    assertThat(roster().location()).isEqualTo(dir.resolve("leader-roster.lease").toString());
  }

  @Test
  void aMissingRosterReadsAsEmpty() throws Exception {
    assertThat(roster().read()).isEqualTo(RosterDocument.EMPTY);
  }

  @Test
  void heartbeatsOfSeveralReplicasAreAllKeptAndWrittenOwnerOnly() throws Exception {
    roster().heartbeat("a", NOW.plusSeconds(30), NOW);
    roster().heartbeat("b", NOW.plusSeconds(31), NOW);
    assertThat(roster().read().members())
        .containsEntry("a", NOW.plusSeconds(30))
        .containsEntry("b", NOW.plusSeconds(31));
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("leader-roster.lease"))))
        .isEqualTo("rw-------");
  }

  @Test
  void expiredEntriesArePrunedOnWrite() throws Exception {
    roster().heartbeat("gone", NOW.plusSeconds(30), NOW);
    roster().heartbeat("a", NOW.plusSeconds(61), NOW.plusSeconds(31));
    assertThat(roster().read().members()).containsOnlyKeys("a");
  }

  @Test
  void leavingRemovesOnlyThisReplica() throws Exception {
    roster().heartbeat("a", NOW.plusSeconds(30), NOW);
    roster().heartbeat("b", NOW.plusSeconds(30), NOW);
    roster().leave("a", NOW);
    assertThat(roster().read().members()).containsOnlyKeys("b");
  }

  @Test
  void aCorruptRosterIsATypedErrorAndAHeartbeatRewritesIt() throws Exception {
    Files.writeString(dir.resolve("leader-roster.lease"), "{\"a\": 12", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> roster().read())
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isTrue())
        .hasMessageContaining("leader-roster.lease")
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> roster().heartbeat("a", NOW.plusSeconds(30), NOW))
        .isInstanceOf(RosterException.class)
        .hasMessageContaining("rewritten");
    assertThat(roster().read().members()).containsOnlyKeys("a");
  }

  @Test
  void anEntryThatIsNotATimeMakesTheRosterCorrupt() throws Exception {
    Files.writeString(dir.resolve("leader-roster.lease"), "{\"a\": \"soon\"}");
    assertThatThrownBy(() -> roster().read())
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isTrue())
        .hasMessageContaining("the entry of a");
  }

  @Test
  void anUnreadableRosterIsATypedErrorThatIsNotCorruption() throws Exception {
    Files.createDirectories(dir.resolve("leader-roster.lease"));
    assertThatThrownBy(() -> roster().read())
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isFalse());
  }
}
