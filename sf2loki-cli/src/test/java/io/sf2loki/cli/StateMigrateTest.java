package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code state migrate}: the Python sf2loki's document into sf2loki's, key by key and org by org,
 * with a dry run, the running-daemon guard, idempotence, the fence epoch carried above the
 * source's, typed errors and nothing lost.
 */
class StateMigrateTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ELF =
      "{\"ids\": [[\"0ATxx0000000001AAA\", \"2026-07-01T00:00:00.000+0000\"]],"
          + " \"last_created\": \"2026-07-01T00:00:00.000+0000\"}";
  private static final String OBJECTS =
      "{\"ids\": [\"0Ywxx0000000001AAA\"], \"last_ts\": \"2026-07-01T00:10:00.000+0000\"}";

  private static final String ORGS =
      """

      orgs = [
        { name = prod, salesforce {} }
        { name = emea, salesforce.login_url = "https://acme--emea.sandbox.my.salesforce.com" }
      ]
      """;

  @TempDir Path dir;

  private StateFixture orgs(String coordinator) throws Exception {
    return new StateFixture(dir, coordinator + ORGS);
  }

  /** A Python multi-org document: two orgs mid-stream, the epoch of a file_lease leader. */
  private static String pythonDocument() throws Exception {
    Map<String, String> doc = new java.util.LinkedHashMap<>();
    doc.put("org=prod:eventlogfile:Login", ELF);
    doc.put("org=prod:pubsub:/event/LoginEventStream", "AAAAAAAH3sQ=");
    doc.put("org=emea:eventlog_objects:LoginEvent", OBJECTS);
    doc.put("org=emea:pubsub:/event/LoginEventStream", "AAAAAAAAAAE=");
    doc.put("apexlog", "2026-07-01T00:00:00.000+0000");
    doc.put("org=apac:apexlog", "2026-07-01T00:00:00.000+0000");
    doc.put("__fence_epoch__", "7");
    return JSON.writeValueAsString(doc);
  }

  private Map<String, String> document(String name) throws Exception {
    return JSON.readValue(dir.resolve(name).toFile(), new TypeReference<>() {});
  }

  @Test
  void aDryRunPrintsWhatMovesWhereOrgByOrgAndWritesNothing() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(pythonDocument());
    byte[] before = f.stateBytes();

    CliRun run = f.run("state", "migrate", "--dry-run");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "sf2loki: dry run: migrating " + f.state + " (fence epoch 7) into 2 org document(s)")
        .contains("org prod -> " + dir.resolve("state-prod.json"))
        .contains("  move     org=prod:eventlogfile:Login")
        .contains("  move     apexlog -> org=prod:apexlog (unprefixed")
        .contains("org emea -> " + dir.resolve("state-emea.json"))
        .contains("  move     org=emea:eventlog_objects:LoginEvent")
        .contains("  fence epoch 8 (above the source's 7")
        .contains("  org=apac:apexlog  org apac is not configured (orgs: prod, emea)")
        .contains("sf2loki: dry run: would migrate 5 checkpoint(s) into 2 org document(s)");
    assertThat(dir.resolve("state-prod.json")).doesNotExist();
    assertThat(dir.resolve("state-emea.json")).doesNotExist();
    assertThat(f.stateBytes()).isEqualTo(before);
  }

  @Test
  void eachOrgGetsItsPositionsTheMarkerAndAnEpochAboveTheSourcesWhichStaysUntouched()
      throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(pythonDocument());
    byte[] before = f.stateBytes();

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "sf2loki: migrated 5 checkpoint(s) into 2 org document(s); "
                + f.state
                + " was not changed");
    assertThat(document("state-prod.json"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "org=prod:eventlogfile:Login", ELF,
                "org=prod:pubsub:/event/LoginEventStream", "AAAAAAAH3sQ=",
                "org=prod:apexlog", "2026-07-01T00:00:00.000+0000",
                "__migrated_from__", f.state.toString(),
                "__fence_epoch__", "8"));
    assertThat(document("state-emea.json"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "org=emea:eventlog_objects:LoginEvent",
                OBJECTS,
                "org=emea:pubsub:/event/LoginEventStream",
                "AAAAAAAAAAE=",
                "__migrated_from__",
                f.state.toString(),
                "__fence_epoch__",
                "8"));
    assertThat(f.stateBytes()).isEqualTo(before);
    CliRun shown = f.run("state", "show", "--org", "prod");
    assertThat(shown.out()).contains("eventlogfile:Login\t" + ELF).contains("3 checkpoint(s)");
  }

  @Test
  void aSecondRunChangesNothingAndSaysSo() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(pythonDocument());
    assertThat(f.run("state", "migrate").exitCode()).isZero();
    byte[] prod = Files.readAllBytes(dir.resolve("state-prod.json"));
    byte[] emea = Files.readAllBytes(dir.resolve("state-emea.json"));

    CliRun again = f.run("state", "migrate");

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out())
        .contains(
            "org prod -> "
                + dir.resolve("state-prod.json")
                + ": already migrated from "
                + f.state
                + " (holds 3 checkpoint(s)); not written")
        .contains(
            "sf2loki: nothing to migrate: every org was migrated already; nothing was written");
    assertThat(Files.readAllBytes(dir.resolve("state-prod.json"))).isEqualTo(prod);
    assertThat(Files.readAllBytes(dir.resolve("state-emea.json"))).isEqualTo(emea);
  }

  @Test
  void anOrgDocumentsOwnKeysAreKeptAndTheRestFilledIn() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(pythonDocument());
    Files.writeString(
        dir.resolve("state-prod.json"),
        "{\"org=prod:pubsub:/event/LoginEventStream\": \"AAAAAAAAAAI=\"}");

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "  keep     org=prod:pubsub:/event/LoginEventStream (the org's document already holds"
                + " it)");
    assertThat(document("state-prod.json"))
        .containsEntry("org=prod:pubsub:/event/LoginEventStream", "AAAAAAAAAAI=")
        .containsEntry("org=prod:eventlogfile:Login", ELF);
  }

  @Test
  void underALeaseCoordinatorItIsRefusedLikeEveryStateCommand() throws Exception {
    StateFixture f =
        orgs("coordinate { type = file_lease, file_lease { path = \"LEASE\", holder_id = cli } }");
    f.writeState(pythonDocument());

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("refusing 'state migrate': coordinate.type is file_lease");
    assertThat(dir.resolve("state-prod.json")).doesNotExist();
  }

  @Test
  void aPythonDaemonStillHoldingTheSourceLockUnderNoopMakesItFail() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(pythonDocument());
    try (CheckpointStore python = singleOrgStore(f.state, true)) {
      python.loadAll(); // takes state.json.lock, as a Python daemon under noop holds it

      CliRun run = f.run("state", "migrate");

      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err()).contains("Refusing to migrate while an sf2loki instance");
      assertThat(dir.resolve("state-prod.json")).doesNotExist();
    }
  }

  @Test
  void aLeaderStillRunningAtTheSourcesEpochCannotCommitToAnOrgsDocumentAfterTheMove()
      throws Exception {
    StateFixture f =
        orgs("coordinate { type = file_lease, file_lease { path = \"LEASE\", holder_id = cli } }");
    f.writeState(pythonDocument());
    CliRun run = f.run("state", "migrate", "--force");
    assertThat(run.exitCode()).as(run.err()).isZero();

    Fence oldLeader = fenceAt(7);
    try (CheckpointStore orgDocument = singleOrgStore(dir.resolve("state-prod.json"), false);
        CheckpointStore source = singleOrgStore(f.state, false)) {
      Assertions.assertThatThrownBy(
              () ->
                  orgDocument.commit(
                      Map.of("org=prod:apexlog", "2026-08-01T00:00:00.000+0000"), oldLeader))
          .isInstanceOf(FencedException.class)
          .hasMessageContaining("already advanced to epoch 8");
      // the old leader can still write its own document, which no org reads any more
      source.commit(Map.of("org=prod:apexlog", "2026-08-01T00:00:00.000+0000"), oldLeader);
    }
    assertThat(document("state-prod.json"))
        .containsEntry("org=prod:apexlog", "2026-07-01T00:00:00.000+0000");
    CliRun shown = f.run("state", "show", "--org", "prod", "--force");
    assertThat(shown.out()).contains("apexlog\t2026-07-01T00:00:00.000+0000");
  }

  @Test
  void aCorruptSourceIsATypedErrorNamingItAndNothingIsWritten() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState("{\"org=prod:apexlog\": 5}");

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains(f.state.toString()).containsIgnoringCase("corrupt");
    assertThat(dir.resolve("state-prod.json")).doesNotExist();
  }

  @Test
  void aValueItsSourceCannotReadIsRefusedNamingItUnlessKeptOnRequest() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(
        "{\"org=prod:pubsub:/event/LoginEventStream\": \"not base64!\", \"org=emea:apexlog\":"
            + " \"2026-07-01T00:00:00.000+0000\"}");

    CliRun refused = f.run("state", "migrate");

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.out())
        .contains("  invalid  org=prod:pubsub:/event/LoginEventStream (refused: not a replay id");
    assertThat(refused.err())
        .contains("refusing to migrate " + f.state + "; nothing was written")
        .contains("org=prod:pubsub:/event/LoginEventStream = not base64!: not a replay id")
        .contains("--keep-invalid");
    assertThat(dir.resolve("state-emea.json")).doesNotExist();

    CliRun kept = f.run("state", "migrate", "--keep-invalid");
    assertThat(kept.exitCode()).as(kept.err()).isZero();
    assertThat(kept.out()).contains("its source restarts from its lookback");
    assertThat(document("state-prod.json"))
        .containsEntry("org=prod:pubsub:/event/LoginEventStream", "not base64!");
  }

  @Test
  void anUnprefixedKeyTheFirstOrgAlsoHasUnderItsPrefixStaysBehindAndIsReported() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(
        "{\"apexlog\": \"2026-06-01T00:00:00.000+0000\", \"org=prod:apexlog\":"
            + " \"2026-07-01T00:00:00.000+0000\"}");

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("  apexlog  the first org (prod) has its own org=prod:apexlog, which wins");
    assertThat(document("state-prod.json"))
        .containsEntry("org=prod:apexlog", "2026-07-01T00:00:00.000+0000");
  }

  @Test
  void unknownNamespacesAreCarriedAndReported() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState("{\"org=prod:custom:thing\": \"x\", \"__writer__\": \"abc\"}");

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("  move     org=prod:custom:thing (no sf2loki source reads this namespace)")
        .contains("  __writer__  reserved key of the document's last writer");
    assertThat(document("state-prod.json")).containsEntry("org=prod:custom:thing", "x");
  }

  @Test
  void aPythonEventLogObjectCursorIsConvertedToTheTokenSf2lokiReads() throws Exception {
    StateFixture f = orgs("coordinate.type = noop");
    f.writeState(
        "{\"org=prod:eventlog_objects:ApiEventLog\": \"{\\\"ids\\\": [], \\\"last_ts\\\":"
            + " \\\"2026-07-01T00:10:00.123+0000\\\"}\"}");

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("  convert  org=prod:eventlog_objects:ApiEventLog (converted");
    assertThat(document("state-prod.json"))
        .containsEntry(
            "org=prod:eventlog_objects:ApiEventLog",
            "{\"from\": \"2026-07-01T00:10:00.123Z\", \"v\": 1}");
  }

  @Test
  void aSingleOrgPythonDocumentIsReadAsItIs() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState("{\"eventlogfile:Login\": " + JSON.writeValueAsString(ELF) + "}");
    byte[] before = f.stateBytes();

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("sf2loki: single org: " + f.state + " is sf2loki's document as it is")
        .contains("  keep     eventlogfile:Login")
        .contains("sf2loki: nothing to migrate: 1 checkpoint(s) are read as they are");
    assertThat(f.stateBytes()).isEqualTo(before);
  }

  @Test
  void aSingleOrgConfigurationRefusesAMultiOrgDocumentNamingItsOrgs() throws Exception {
    StateFixture f = StateFixture.noop(dir);
    f.writeState(pythonDocument());

    CliRun run = f.run("state", "migrate");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("holds the positions of org(s) prod, emea, apac")
        .contains("list those orgs under orgs");
  }

  private static Fence fenceAt(long epoch) {
    return new Fence() {
      @Override
      public OptionalLong fencingEpoch() {
        return OptionalLong.of(epoch);
      }

      @Override
      public boolean isCurrent() {
        return true;
      }
    };
  }

  /** The file store on {@code path}, opened as a daemon would. */
  private CheckpointStore singleOrgStore(Path path, boolean singleInstance) throws Exception {
    Path config = dir.resolve("store-" + path.getFileName() + ".conf");
    Files.writeString(
        config,
        """
        salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com"
                     client_id = x, client_secret = y }
        sink.loki.url = "http://127.0.0.1:3100"
        state { store = file, file.path = "%s" }
        """
            .formatted(path));
    return Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).load(Optional.of(config)),
            getClass().getClassLoader())
        .store()
        .create(new StoreEnvironment(singleInstance, Clock.systemUTC(), new SimpleMeterRegistry()));
  }
}
