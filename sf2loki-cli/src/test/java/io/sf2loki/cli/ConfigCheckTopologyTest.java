package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code config check} warns, saying why, about topologies that validate but cannot be safe. */
class ConfigCheckTopologyTest {

  @TempDir Path dir;

  private CliRun check(String config) throws Exception {
    Path file = dir.resolve("sf2loki.conf");
    Files.writeString(file, ConfigCommandTest.VALID + config);
    return CliRun.of("--config", file.toString(), "config", "check");
  }

  /** A path on a shared mount; config check never touches it. */
  private static String shared(String name) {
    return "/mnt/sf2loki-shared/" + name;
  }

  @Test
  void aSoundFileLeasePairChecksOkWithoutWarnings() throws Exception {
    CliRun run =
        check(
            "state.file.path = \"%s\"\ncoordinate { type = file_lease, file_lease.path = \"%s\" }\n"
                .formatted(shared("state.json"), shared("leader.lease")));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("config check OK");
  }

  @Test
  void aStateFileUnderTmpWithALeaseCoordinatorIsWarnedAboutButStillOk() throws Exception {
    CliRun run =
        check(
            "state.file.path = \"/tmp/sf2loki/state.json\"\n"
                + "coordinate { type = file_lease, file_lease.path = \"/tmp/sf2loki/leader.lease\" }\n");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "config check WARN: state.file.path (/tmp/sf2loki/state.json) is under a node-local"
                + " temporary directory")
        .contains("every replica must read and write the same file")
        .endsWith("config check OK\n");
  }

  @Test
  void aStateFileOutsideTheLeaseFilesDirectoryIsWarnedAbout() throws Exception {
    CliRun run =
        check(
            "state.file.path = \"%s\"\ncoordinate { type = file_lease, file_lease.path = \"%s\" }\n"
                .formatted("/var/lib/sf2loki/state.json", shared("leader.lease")));

    assertThat(run.out())
        .contains("is not in the directory of coordinate.file_lease.path")
        .contains("one volume that every replica mounts");
  }

  @Test
  void aShutdownGraceNotBelowTheLeaseTtlIsWarnedAbout() throws Exception {
    CliRun run =
        check(
            "state.file.path = \"%s\"\nservice.shutdown_grace = 30s\n"
                    .formatted(shared("state.json"))
                + "coordinate { type = file_lease, file_lease { path = \"%s\", ttl = 30s } }\n"
                    .formatted(shared("leader.lease")));

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains(
            "config check WARN: service.shutdown_grace (30s) is not below the lease duration (30s,"
                + " coordinate.file_lease)")
        .contains("the final drain runs without renewing the lease");
  }

  @Test
  void aFileStoreUnderK8sLeaseIsWarnedAboutAndNoopNeverIs() throws Exception {
    CliRun k8s =
        check(
            "state.file.path = \"%s\"\ncoordinate.type = k8s_lease\n"
                .formatted(shared("state.json")));
    assertThat(k8s.out()).contains("state.store is file under coordinate.type = k8s_lease");

    CliRun noop = check("state.file.path = \"/tmp/state.json\"\nservice.shutdown_grace = 5m\n");
    assertThat(noop.out().strip()).isEqualTo("config check OK");
  }
}
