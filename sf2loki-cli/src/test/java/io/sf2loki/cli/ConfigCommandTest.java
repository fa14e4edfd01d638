package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCommandTest {

  @Test
  void exampleAndReferenceNeedNoConfigFile() {
    CliRun example = CliRun.of("config", "example");
    assertThat(example.exitCode()).isZero();
    assertThat(example.out()).contains("salesforce {").contains("REQUIRED: fill in");
    CliRun reference = CliRun.of("config", "reference");
    assertThat(reference.exitCode()).isZero();
    assertThat(reference.out()).startsWith("# Configuration reference").contains("| `url` | url |");
  }

  @Test
  void exampleFollowsTheDataPath() {
    String example = CliRun.of("config", "example").out();
    int salesforce = example.indexOf("\nsalesforce {");
    int sources = example.indexOf("\nsources {");
    int sink = example.indexOf("\nsink {");
    int state = example.indexOf("\nstate {");
    int coordinate = example.indexOf("\ncoordinate {");
    int service = example.indexOf("\nservice {");
    assertThat(salesforce).isNotNegative();
    assertThat(java.util.List.of(salesforce, sources, sink, state, coordinate, service)).isSorted();
  }

  @Test
  void minimalExampleChecksOkOnceItsRequiredValuesAreFilled(@TempDir Path dir) throws Exception {
    CliRun minimal = CliRun.of("config", "example", "--minimal");
    assertThat(minimal.exitCode()).isZero();
    Path unfilled = Files.writeString(dir.resolve("unfilled.conf"), minimal.out());
    assertThat(CliRun.of("--config", unfilled.toString(), "config", "check").exitCode())
        .isEqualTo(2);
    String filled =
        minimal
            .out()
            .replace("client_id = \"\"", "client_id = \"3MVG9-test\"")
            .replace("client_secret = \"\"", "client_secret = \"s3cret\"");
    Path file = Files.writeString(dir.resolve("minimal.conf"), filled);
    CliRun check = CliRun.of("--config", file.toString(), "config", "check");
    assertThat(check.exitCode()).as(check.err()).isZero();
    assertThat(minimal.out().lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count())
        .isLessThanOrEqualTo(12);
  }

  @Test
  void configIsAcceptedBeforeOrAfterTheCommand(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("typo.conf");
    Files.writeString(file, "sink.loki.ulr = x\n");
    CliRun before = CliRun.of("--config", file.toString(), "config", "check");
    CliRun middle = CliRun.of("config", "--config", file.toString(), "check");
    CliRun after = CliRun.of("config", "check", "--config", file.toString());
    for (CliRun run : new CliRun[] {before, middle, after}) {
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err())
          .startsWith("config check FAILED: ")
          .contains("unknown configuration key 'sink.loki.ulr' (did you mean 'sink.loki.url'?)");
    }
  }

  @Test
  void failureIsOneMessageWithoutAStackTraceUnlessDebug(@TempDir Path dir) {
    Path missing = dir.resolve("absent.conf");
    CliRun plain = CliRun.of("--config", missing.toString(), "config", "check");
    assertThat(plain.exitCode()).isEqualTo(2);
    assertThat(plain.err().strip())
        .isEqualTo(
            "config check FAILED: config file " + missing + " does not exist or is not a file");
    CliRun debug = CliRun.of("--debug", "--config", missing.toString(), "config", "check");
    assertThat(debug.err()).contains("at io.sf2loki.config.ConfigLoader");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun run = CliRun.of("frobnicate");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Unmatched argument at index 0: 'frobnicate'");
  }

  @Test
  void missingSubcommandIsAUsageError() {
    assertThat(CliRun.of("config").exitCode()).isEqualTo(2);
    assertThat(CliRun.of().exitCode()).isEqualTo(2);
  }

  @Test
  void versionPrintsTheBuildVersion() {
    CliRun run = CliRun.of("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out().strip()).matches("sf2loki \\d+\\.\\d+\\.\\d+.*");
  }

  /** A minimal configuration that checks OK. */
  static final String VALID =
      """
      salesforce {
        auth_mode = client_credentials
        login_url = "https://acme.my.salesforce.com"
        client_id = "3MVG9-test"
        client_secret = "not-a-real-secret"
      }
      sink.loki.url = "http://127.0.0.1:3100"
      """;

  @Test
  void validConfigChecksOk(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ok.conf");
    Files.writeString(file, VALID + "state.file.path = \"" + dir.resolve("state.json") + "\"\n");
    CliRun run = CliRun.of("--config", file.toString(), "config", "check");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("config check OK");
  }

  @Test
  void threeIndependentMistakesAreAllNamedAndExitTwo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.conf");
    Files.writeString(
        file,
        VALID
            + """
            coordinate { type = file_lease, file_lease { ttl = 30s, renew_interval = 20s } }
            state { store = s3, s3.bucket = "" }
            sink.loki.batch.flush_interval = soon
            """);
    CliRun run = CliRun.of("config", "check", "--config", file.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("config check FAILED: 3 configuration problems:")
        .contains("coordinate.file_lease.renew_interval (20s) must be less than half of ttl (30s)")
        .contains("state.s3.bucket")
        .contains("sink.loki.batch.flush_interval: 'soon' is not a duration");
  }

  @Test
  void unknownStoreAndCoordinatorTypesListTheProvidersOnTheClassPath(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("types.conf");
    Files.writeString(file, VALID + "state.store = dynamo\ncoordinate.type = zookeeper\n");
    CliRun run = CliRun.of("--config", file.toString(), "config", "check");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("state.store: unknown checkpoint store type 'dynamo' (known: file, gcs, s3)")
        .contains(
            "coordinate.type: unknown coordinator type 'zookeeper' (known: file_lease, k8s_lease,"
                + " noop)");
  }

  @Test
  void environmentOverrideIsCheckedToo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ok.conf");
    Files.writeString(file, VALID);
    CliRun run =
        CliRun.withEnv(
            java.util.Map.of(
                "SF2LOKI_COORDINATE__TYPE",
                "file_lease",
                "SF2LOKI_COORDINATE__FILE_LEASE__RENEW_INTERVAL",
                "1m"),
            "--config",
            file.toString(),
            "config",
            "check");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("coordinate.file_lease.renew_interval (1m) must be less than half of ttl (30s)");
  }

  @Test
  void exampleConfigPassesCheckOnceItsPlaceholderSecretsAreFilled(@TempDir Path dir)
      throws Exception {
    String example = CliRun.of("config", "example").out();
    Path file = dir.resolve("example.conf");
    Files.writeString(file, example);
    CliRun unfilled = CliRun.of("--config", file.toString(), "config", "check");
    assertThat(unfilled.exitCode()).isEqualTo(2);
    assertThat(unfilled.err()).contains("salesforce.client_secret is required");
    Files.writeString(
        file,
        example
            .replace("client_secret = \"\"", "client_secret = \"filled-in\"")
            .replace("/var/lib/sf2loki/", dir.toString() + "/"));
    CliRun filled = CliRun.of("--config", file.toString(), "config", "check");
    assertThat(filled.exitCode()).as(filled.err()).isZero();
  }
}
