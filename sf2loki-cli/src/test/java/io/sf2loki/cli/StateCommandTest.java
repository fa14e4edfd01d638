package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateCommandTest {

  @TempDir Path dir;

  @Test
  void showPrintsSortedKeysAndTheFenceEpochApart() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState(
        "{\"pubsub:/event/X\": \"AAAB\", \"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"__fence_epoch__\": \"7\"}");
    CliRun run = f.run("state", "show");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "apexlog\t2026-07-01T00:00:00.000+0000\npubsub:/event/X\tAAAB\n\n2 checkpoint(s)\nfence epoch: 7\n");
  }

  @Test
  void showFiltersByGlobAndPrintsJson() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"pubsub:/event/X\": \"AAAB\", \"apexlog\": \"2026-07-01T00:00:00.000+0000\"}");
    assertThat(f.run("state", "show", "--key", "pubsub:*").out())
        .contains("pubsub:/event/X\tAAAB")
        .doesNotContain("apexlog")
        .contains("1 checkpoint(s) matching 'pubsub:*'");
    assertThat(f.run("state", "show", "--json").out())
        .contains("\"fence_epoch\" : null")
        .contains("\"apexlog\" : \"2026-07-01T00:00:00.000+0000\"");
  }

  @Test
  void setRejectsAValueThatDoesNotFitItsNamespace() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    CliRun run = f.run("state", "set", "eventlogfile:Login", "yesterday");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("refusing to set 'eventlogfile:Login'").contains("last_created");
    assertThat(Files.exists(f.state)).isFalse();
  }

  @Test
  void reservedEpochKeyIsRefusedWithoutForce() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"__fence_epoch__\": \"9\"}");
    CliRun set = f.run("state", "set", "__fence_epoch__", "3");
    assertThat(set.exitCode()).isEqualTo(1);
    assertThat(set.err()).contains("reserved internal key; refusing to set it");
    CliRun delete = f.run("state", "delete", "__fence_epoch__");
    assertThat(delete.exitCode()).isEqualTo(1);
    assertThat(delete.err()).contains("refusing to delete it");
    assertThat(f.run("state", "show").out()).contains("fence epoch: 9");
  }

  @Test
  void reservedEpochKeyIsWrittenWithForceAndMustBeAnInteger() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"__fence_epoch__\": \"9\"}");
    assertThat(f.run("state", "set", "__fence_epoch__", "-1", "--force").exitCode()).isEqualTo(1);
    CliRun set = f.run("state", "set", "__fence_epoch__", "3", "--force");
    assertThat(set.exitCode()).as(set.err()).isZero();
    assertThat(f.run("state", "show").out()).contains("fence epoch: 3");
  }

  @Test
  void underK8sLeaseAnEpochWhoseSuccessorOverflowsInt32IsRefusedAtStateSet() throws Exception {
    StateFixture f = StateFixture.k8sLease(dir);
    f.writeState("{\"__fence_epoch__\": \"9\"}");

    CliRun tooHigh = f.run("state", "set", "__fence_epoch__", "2147483647", "--force");
    assertThat(tooHigh.exitCode()).isEqualTo(1);
    assertThat(tooHigh.err())
        .contains("int32 leaseTransitions")
        .contains("use a value below 2147483647");
    assertThat(new String(f.stateBytes(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"9\"");

    CliRun highest = f.run("state", "set", "__fence_epoch__", "2147483646", "--force");
    assertThat(highest.exitCode()).as(highest.err()).isZero();
  }

  @Test
  void theSingleInstanceWriterTokenIsHiddenAndCannotBeSet() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"__writer__\": \"t\"}");

    assertThat(f.run("state", "show").out()).doesNotContain("__writer__").contains("apexlog");
    CliRun set = f.run("state", "set", "__writer__", "x", "--force");
    assertThat(set.exitCode()).isEqualTo(1);
    assertThat(set.err()).contains("reserved internal key");
  }

  @Test
  void deleteOfAMissingKeyIsANoOp() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"apexlog\": \"2026-07-01T00:00:00.000+0000\"}");
    CliRun run = f.run("state", "delete", "eventlogfile:Login");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("nothing deleted");
    CliRun real = f.run("state", "delete", "apexlog");
    assertThat(real.out()).contains("sf2loki: deleted apexlog (its source restarts");
  }

  @Test
  void exportThenImportIntoAnEmptyStoreKeepsEveryKeyAndTheEpoch() throws Exception {
    StateFixture source =
        StateFixture.noop(dir.resolve("a").toFile().mkdirs() ? dir.resolve("a") : dir);
    source.writeState(
        "{\"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"__fence_epoch__\": \"12\"}");
    Path exported = dir.resolve("export.json");
    assertThat(source.run("state", "export", "--output", exported.toString()).exitCode()).isZero();
    Files.createDirectories(dir.resolve("b"));
    StateFixture target = StateFixture.noop(dir.resolve("b"));
    CliRun imported = target.run("state", "import", exported.toString());
    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(target.run("state", "show").out())
        .contains("apexlog\t2026-07-01T00:00:00.000+0000")
        .contains("fence epoch: 12");
  }

  @Test
  void importRefusesANonEmptyTargetUnlessReplace() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState(
        "{\"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"eventlogfile:Login\": \"2026-07-01T00:00:00.000+0000\"}");
    Path file = dir.resolve("in.json");
    Files.writeString(file, "{\"apexlog\": \"2026-09-09T00:00:00.000+0000\"}");
    CliRun refused = f.run("state", "import", file.toString());
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("pass --replace");
    assertThat(f.run("state", "import", file.toString(), "--replace").exitCode()).isZero();
    assertThat(f.run("state", "show").out())
        .contains("apexlog\t2026-09-09T00:00:00.000+0000")
        .doesNotContain("eventlogfile:Login");
  }

  @Test
  void importOfANonDocumentIsAClearFailure() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    Path file = dir.resolve("in.json");
    Files.writeString(file, "[1,2]");
    CliRun run = f.run("state", "import", file.toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().strip())
        .isEqualTo("sf2loki: " + file + " is not a checkpoint document (a flat JSON object)");
  }

  @Test
  void corruptStateIsAFailureNamingTheFile() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"apexlog\": 3");
    CliRun run = f.run("state", "show");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains(f.state.toString()).doesNotContain("\tat ");
  }

  @Test
  void missingArgumentIsAUsageError() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    assertThat(f.run("state", "set", "apexlog").exitCode()).isEqualTo(2);
    assertThat(f.run("state").exitCode()).isEqualTo(2);
  }

  @Test
  void leaseShowUnderNoopSaysThereIsNoLease() throws Exception {
    CliRun run = StateFixture.noop(dir).run("lease", "show");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("there is no lease");
  }

  @Test
  void leaseShowReportsTheFileLease() throws Exception {
    StateFixture f = StateFixture.fileLease(dir);
    f.writeLease(
        "{\"holder\": \"node-b\", \"expires_at\": \"2020-01-01T00:00:00Z\", \"epoch\": 3}");
    CliRun run = f.run("lease", "show");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("file_lease")
        .contains("node-b")
        .contains("EXPIRED")
        .contains("epoch     3");
  }
}
