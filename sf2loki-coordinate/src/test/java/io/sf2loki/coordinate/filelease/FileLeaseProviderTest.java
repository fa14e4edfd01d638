package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.LeaseInspector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binding of coordinate.file_lease, provider discovery and the lease inspector. */
class FileLeaseProviderTest {

  private static ConfigReader section(String hocon) {
    ConfigLoader loader = new ConfigLoader(FileLeaseProviderTest.class.getClassLoader(), Map.of());
    return loader.loadString(hocon).reader().section("coordinate.file_lease");
  }

  @Test
  void defaultsBindFromReferenceConf() {
    FileLeaseConfig config = FileLeaseConfig.bind(section(""));

    assertThat(config.path()).isEqualTo(Path.of("/var/lib/sf2loki/leader.lease"));
    assertThat(config.ttl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.renewInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.holderId()).isEmpty();
    assertThat(config.verifyPause()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.mode().octal()).isEqualTo("0600");
  }

  @Test
  void leaseIsWrittenWithTheConfiguredModeForReplicasUnderDifferentUids(@TempDir Path dir)
      throws Exception {
    Path lease = dir.resolve("leader.lease");
    ConfigReader r = section("coordinate.file_lease { path = \"" + lease + "\", mode = \"0660\" }");
    FileLeaseConfig config = FileLeaseConfig.bind(r);
    assertThat(r.problems()).isEmpty();

    new FileLeaseFile(config.path(), config.mode())
        .write(new FileLeaseDocument("a", Instant.parse("2026-01-01T12:00:00Z"), 1));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lease)))
        .isEqualTo("rw-rw----");
  }

  @Test
  void modeMustBeAnOctalPermissionString() {
    ConfigReader r = section("coordinate.file_lease.mode = \"777x\"");

    FileLeaseConfig.bind(r);

    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .asString()
        .startsWith("coordinate.file_lease.mode (777x) must be an octal permission string");
  }

  @Test
  void ioTimeoutDefaultsToAQuarterOfWhatTheTtlLeavesAfterOneRenewInterval() {
    assertThat(FileLeaseConfig.bind(section("")).ioTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(
            FileLeaseConfig.bind(
                    section("coordinate.file_lease { ttl = 60s, renew_interval = 20s }"))
                .ioTimeout())
        .isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void anIoTimeoutThatWouldLetARenewalOverrunTheTtlIsAProblem() {
    ConfigReader r = section("coordinate.file_lease { io_timeout = 8s }");

    FileLeaseConfig.bind(r);

    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .asString()
        .startsWith("coordinate.file_lease.io_timeout (8s) is too long for ttl (30s)")
        .contains("renew_interval + 3 x io_timeout must not exceed ttl");
  }

  @Test
  void renewIntervalMustBeLessThanHalfTheTtl() {
    ConfigReader r = section("coordinate.file_lease { renew_interval = 20s, ttl = 30s }");

    FileLeaseConfig.bind(r);

    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .asString()
        .startsWith(
            "coordinate.file_lease.renew_interval (20s) must be less than half of ttl (30s)");
  }

  @Test
  void providersAreDiscoveredByType() {
    assertThat(ProviderRegistry.coordinators(getClass().getClassLoader()).types())
        .contains("noop", "file_lease");
  }

  @Test
  void inspectorReportsHolderExpiryAndEpochWithoutJoining(@TempDir Path dir) throws Exception {
    Path lease = dir.resolve("leader.lease");
    Instant now = Instant.parse("2026-01-01T12:00:00Z");
    ConfigReader r = section("coordinate.file_lease.path = \"" + lease + "\"");
    CoordinatorProvider.Factory factory = new FileLeaseCoordinatorProvider().configure(r);
    LeaseInspector inspector =
        factory.inspector(Clock.fixed(now, ZoneOffset.UTC), Map.of()).orElseThrow();

    assertThat(inspector.inspect().state()).isEqualTo(LeaseInfo.State.ABSENT);
    new FileLeaseFile(lease).write(new FileLeaseDocument("a", now.plusSeconds(5), 4));
    LeaseInfo held = inspector.inspect();
    assertThat(held.state()).isEqualTo(LeaseInfo.State.HELD);
    assertThat(held.holder()).contains("a");
    assertThat(held.epoch()).hasValue(4);
    assertThat(held.expires()).contains(now.plusSeconds(5));
    new FileLeaseFile(lease).write(new FileLeaseDocument("a", now, 4));
    assertThat(inspector.inspect().state()).isEqualTo(LeaseInfo.State.EXPIRED);
    Files.writeString(lease, "garbage");
    assertThat(inspector.inspect().state()).isEqualTo(LeaseInfo.State.UNREADABLE);
  }
}
