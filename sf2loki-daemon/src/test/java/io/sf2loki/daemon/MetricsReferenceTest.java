package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.gcs.FakeGcsServer;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.FakeOtlpReceiver;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription;
import io.sf2loki.testkit.pubsub.PubSubFault;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import io.sf2loki.testkit.salesforce.ApexLogs;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import io.sf2loki.testkit.salesforce.LogFileSchema;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/observability/metrics.md against the composed daemon (issue 15), in both directions: every
 * metric four runs against the testkit's fakes expose is documented, and every documented metric is
 * exposed by one of them. The runs: a plain EventLogFile run; a restart whose late rows Loki
 * rejects for its time window (the first one pushing over OTLP too); a run with faults at the
 * fakes' named points (Loki 429, 500 and a reset, Salesforce auth, 5xx and throttling, a failed
 * download, corrupt and stalled cursors, shaping drops) across all three sources; and a run fenced
 * on the GCS store.
 */
class MetricsReferenceTest {

  /** Documented metrics no run here reaches, with the reason; keep it empty or nearly so. */
  private static final Map<String, String> UNREACHED =
      Map.of(
          "sf2loki_file_io_timeouts_total",
          "needs a mount that stops answering: FileStoreHungIoTest and FileLeaseHungMountTest",
          "sf2loki_checkpoint_heartbeat_failures_total",
          "needs a noop daemon on S3/GCS cut off for 30s while a second one waits:"
              + " SingleWriterContract in sf2loki-state",
          "sf2loki_loki_ingestion_blocked",
          "needs a tenant Loki blocks, which stops every push of the run: LokiSinkBlockedTest and"
              + " PipelineLokiBlockedTest",
          "sf2loki_structured_metadata_trimmed_total",
          "needs a line of more than 127 metadata pairs or 64 KB: LokiSinkMetadataLimitTest",
          "sf2loki_shard_roster_retries_total",
          "needs a k8s_lease roster whose Lease a rival replaces in between:"
              + " K8sLeaseRosterConflictTest in sf2loki-coordinate",
          "sf2loki_egress_budget_read_errors_total",
          "counted only by the Kafka Connect sink connector's tasks: SinkEgressClusterTest (an"
              + " Admin bootstrap nobody answers) and GroupUsageTest in sf2loki-kafka-connect");

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private FakeOtlpReceiver otlp;
  private final Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
  private final Set<String> exposed = new TreeSet<>();

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
    otlp = FakeOtlpReceiver.start();
  }

  @AfterEach
  void stop() {
    otlp.close();
    loki.close();
    salesforce.close();
  }

  @Test
  void everyMetricTheDaemonExposesIsDocumentedAndEveryDocumentedOneIsExposed() throws Exception {
    plainAndRestartedEventLogFileRuns();
    runWithFaultsAtEveryNamedPoint();
    runFencedOnGcs();
    runPubSubWithFaults();
    runTwoOrgsUnderAFileLease();
    runOtlpSink();

    Set<String> documented = MetricsReference.documented();
    assertThat(minus(exposed, documented))
        .as("exposed by a run but not in %s", MetricsReference.DOC)
        .isEmpty();
    assertThat(minus(documented, exposed))
        .as("documented but exposed by no run (if one cannot be reached, say why in UNREACHED)")
        .containsExactlyInAnyOrderElementsOf(UNREACHED.keySet());
    assertThat(
            MetricsReference.namesInMainCode().stream()
                .filter(n -> !documented.contains(n) && !documented.contains(n + "_total"))
                .toList())
        .as("meter names in the main code, documented neither as such nor as a _total counter")
        .isEmpty();
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }

  /** The base configuration: client credentials on the fake org, the fake Loki, fast lanes. */
  private String config(Path state, String more) {
    return """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        sink.loki {
          url = "%s"
          batch { flush_interval = 100ms, max_entries = 100 }
          retry { lane_min_backoff = 10ms, lane_max_backoff = 100ms }
        }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        %s
        """
        .formatted(
            salesforce.baseUrl(), loki.baseUri(), state, TestTiming.seconds(5).toMillis(), more);
  }

  private static String eventLogFile(String types, String more) {
    return """
        sources.eventlogfile {
          enabled = true
          event_types = %s
          interval = Hourly
          poll_interval = 1s
          lookback = 12h
          %s
        }
        """
        .formatted(types, more);
  }

  private LogFileSpec loginFile(String id, Instant logDate, Instant created, int sequence) {
    LogFileSpec spec =
        new LogFileSpec(id, "Login", "Hourly", logDate, created, sequence, 50, sequence, false);
    salesforce.addLogFile(spec);
    return spec;
  }

  private void plainAndRestartedEventLogFileRuns() throws Exception {
    Path state = dir.resolve("elf-state.json");
    loginFile("0ATD000000L0001AAA", hour.minus(3, ChronoUnit.HOURS), hour.minusSeconds(7200), 1);
    String pushed =
        eventLogFile("[Login]", "")
            + "service.metrics.otlp { enabled = true, url = \"%s\", step = 1s, timeout = 1s }\n"
                .formatted(otlp.metricsUrl());
    try (ComposedRun run = ComposedRun.start(config(state, pushed))) {
      exposed.addAll(
          run.awaitExposed(
              Set.of(
                  "sf2loki_otlp_push_failures_total",
                  "sf2loki_otlp_last_push_success_timestamp_seconds",
                  "sf2loki_events_ingested_total",
                  "sf2loki_ingest_lag_seconds",
                  "sf2loki_ingest_lag_seconds_max",
                  "sf2loki_loki_responses_total",
                  "sf2loki_loki_push_duration_seconds_max",
                  "sf2loki_checkpoint_commits_total",
                  "sf2loki_eventlogfile_files_processed_total",
                  "sf2loki_eventlogfile_rows_ingested_total",
                  "sf2loki_eventlogfile_download_bytes_total",
                  "sf2loki_salesforce_api_calls_total",
                  "sf2loki_salesforce_limit_max",
                  "sf2loki_salesforce_api_budget_state")));
      // the whole file, committed by the drain at stop: the restart must not ship any of it again
      await().atMost(TestTiming.seconds(30)).until(() -> loki.lines().size() >= 50);
    }
    // Restarted, the sink does not know the stream holds hour H-3: a late Sequence 2 file of hour
    // H-6 is pushed as planned, Loki rejects it as too far behind, and the drop policy drops it.
    // It has a column more than the first file, whose schema the committed checkpoint recorded.
    LogFileSpec late =
        loginFile(
            "0ATD000000L0002AAA",
            hour.minus(6, ChronoUnit.HOURS),
            Instant.now().minus(6, ChronoUnit.MINUTES),
            2);
    salesforce.changeSchema(
        "Login", late.createdDate(), LogFileSchema.STANDARD.plus("LOGIN_KEY", "String"));
    String dropLate = eventLogFile("[Login]", "") + "sink.loki.late_policy = drop\n";
    try (ComposedRun run = ComposedRun.start(config(state, dropLate))) {
      exposed.addAll(
          run.awaitExposed(
              Set.of(
                  "sf2loki_loki_window_rejections_total",
                  "sf2loki_loki_out_of_window_entries_total",
                  "sf2loki_loki_entries_dropped_total",
                  "sf2loki_eventlogfile_schema_changes_total")));
    }
  }

  private void runWithFaultsAtEveryNamedPoint() throws Exception {
    Path state = dir.resolve("faults-state.json");
    Files.writeString(
        state,
        "{\"eventlogfile:API\": \"not a cursor\", \"eventlog_objects:SetupAuditTrail\": "
            + stalledCursor()
            + "}");
    // a crashed writer's temp file next to the state (removed), and a spool entry that cannot be
    // removed (a non-empty directory where a spooled download would be): the clean-up failure
    Files.writeString(dir.resolve(".faults-state.json.12345.tmp"), "{\"half");
    Path spool = Files.createDirectories(dir.resolve("spool"));
    Path stuck = Files.createDirectories(spool.resolve("sf2loki-elf-stuck.csv"));
    Files.writeString(stuck.resolve("inside"), "x");
    Files.setLastModifiedTime(
        stuck, java.nio.file.attribute.FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    salesforce.addLogFile(
        "API", "Hourly", hour.minus(2, ChronoUnit.HOURS), hour.minusSeconds(3600), 200);
    ApexLogs apex = salesforce.apexLogs();
    Instant started = Instant.now().minus(20, ChronoUnit.MINUTES);
    apex.add(started, "dev@example.com", "Success", "small body");
    apex.add(started.plusSeconds(1), "dev@example.com", "Success", "x".repeat(4096));
    String failing = apex.add(started.plusSeconds(2), "dev@example.com", "Success", "once").id();
    apex.failBody(failing, 503, 1);
    salesforce.inject(
        Fault.status(
            Fault.Route.TOKEN, 400, "{\"error\":\"invalid_client\",\"error_description\":\"x\"}"));
    salesforce.inject(Fault.serverError(Fault.Route.QUERY));
    salesforce.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));
    salesforce.inject(Fault.serverError(Fault.Route.LOGFILE));
    loki.addFault(io.sf2loki.testkit.loki.Fault.status(429, 1));
    loki.addFault(io.sf2loki.testkit.loki.Fault.status(500, 1));
    loki.addFault(io.sf2loki.testkit.loki.Fault.reset(1));

    String sources =
        eventLogFile(
                "[{name = API, labels = [REQUEST_STATUS], sample = \"0.5\"}]",
                """
                max_label_values = 1
                transforms = [{name = skip-page-1, action = drop_row, match = {URI = "/apex/Page1"}}]
                spool_dir = "%s"
                """
                    .formatted(spool))
            + """
            sources.eventlog_objects {
              enabled = true
              objects = [{name = SetupAuditTrail, settle_window = 0, poll_interval = 1s, lookback = 1h}]
            }
            sources.apexlog { enabled = true, poll_interval = 1s, lookback = 1h, max_body_bytes = 1KiB }
            sink.loki { max_line_bytes = 300, labels { environment = "%s" } }
            salesforce.limits.throttle_backoff = 1s
            """
                .formatted("e".repeat(2049)); // longer than Loki takes: sent as metadata instead
    try (ComposedRun run = ComposedRun.start(config(state, sources))) {
      exposed.addAll(
          run.awaitExposed(
              Set.of(
                  "sf2loki_loki_transport_errors_total",
                  "sf2loki_lines_truncated_total",
                  "sf2loki_labels_demoted_total",
                  "sf2loki_salesforce_api_throttled_total",
                  "sf2loki_soql_poll_errors_total",
                  "sf2loki_eventlogfile_download_errors_total",
                  "sf2loki_checkpoint_load_errors_total",
                  "sf2loki_watermark_stalls_total",
                  "sf2loki_apexlog_bodies_skipped_total",
                  "sf2loki_apexlog_download_errors_total",
                  "sf2loki_rows_filtered_total",
                  "sf2loki_entries_sampled_out_total",
                  "sf2loki_label_values_capped_total",
                  "sf2loki_stray_files_removed_total",
                  "sf2loki_stray_file_cleanup_failures_total")));
    }
    salesforce.clearFaults();
    loki.clearFaults();
  }

  /**
   * A SetupAuditTrail cursor whose last id sorts first among 201 records sharing its timestamp: the
   * next page holds 200 records it has all seen, twice in a row, so the watermark is stalled.
   */
  private String stalledCursor() {
    salesforce.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    Instant at = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    List<String> ids =
        new ArrayList<>(salesforce.eventObjects().addTieGroup("SetupAuditTrail", at, 201));
    ids.add(ids.remove(0));
    String lastTs =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx")
            .withZone(ZoneOffset.UTC)
            .format(at);
    String cursor =
        "{\"ids\": ["
            + ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(", "))
            + "], \"last_ts\": \""
            + lastTs
            + "\"}";
    return "\"" + cursor.replace("\"", "\\\"") + "\"";
  }

  private void runFencedOnGcs() throws Exception {
    try (FakeGcsServer gcs = FakeGcsServer.start()) {
      gcs.failNext(FakeGcsServer.Operation.UPLOAD, 503); // the claim at acquire is retried
      salesforce.addLogFile(
          "Logout", "Hourly", hour.minus(2, ChronoUnit.HOURS), hour.minusSeconds(3600), 50);
      String more =
          eventLogFile("[Logout]", "")
              + """
              state { store = gcs, gcs { bucket = sf2loki-test, object_name = "state.json", endpoint_url = "%s" } }
              coordinate { type = file_lease, file_lease { path = "%s", holder_id = a, ttl = 10m, renew_interval = 4m } }
              """
                  .formatted(gcs.endpoint(), dir.resolve("leader.lease"));
      try (ComposedRun run = ComposedRun.start(config(dir.resolve("unused.json"), more))) {
        await()
            .atMost(TestTiming.seconds(30))
            .until(() -> document(gcs).containsKey("eventlogfile:Logout"));
        // Another replica records a later epoch; the next commit loses the race and is fenced
        // (no renewal, hence no fence check, comes first: renew_interval is 4m).
        Map<String, String> rival = new TreeMap<>(document(gcs));
        rival.put(
            "__fence_epoch__", Long.toString(Long.parseLong(rival.get("__fence_epoch__")) + 10));
        gcs.put("sf2loki-test", "state.json", json(rival).getBytes(StandardCharsets.UTF_8));
        salesforce.addLogFile(
            "Logout",
            "Hourly",
            hour.minus(1, ChronoUnit.HOURS),
            Instant.now().minus(6, ChronoUnit.MINUTES), // past the settle window
            50);
        exposed.addAll(
            run.awaitExposed(
                Set.of(
                    "sf2loki_checkpoint_write_retries_total",
                    "sf2loki_checkpoint_commit_failures_total",
                    "sf2loki_checkpoint_fenced_commits_total")));
      }
    }
  }

  /**
   * {@code sink.type = otlp}, composed as the daemon does: the Login files exported first to a port
   * nothing listens on (transport errors, retried by the lane), then to the fake receiver started
   * there (answers).
   */
  private void runOtlpSink() throws Exception {
    int port;
    try (FakeOtlpLogs closed = FakeOtlpLogs.start()) {
      port = closed.uri().getPort();
    }
    String exported =
        eventLogFile("[Login]", "")
            + "sink.type = otlp\nsink.otlp.url = \"http://127.0.0.1:%d\"\n".formatted(port);
    try (ComposedRun run = ComposedRun.start(config(dir.resolve("otlp-state.json"), exported))) {
      exposed.addAll(
          run.awaitExposed(
              Set.of(
                  "sf2loki_otlp_bytes_pushed_total",
                  "sf2loki_otlp_rejected_records_total",
                  "sf2loki_otlp_transport_errors_total")));
      try (FakeOtlpLogs logs = FakeOtlpLogs.builder().port(port).start()) {
        exposed.addAll(run.awaitExposed(Set.of("sf2loki_otlp_responses_total")));
        assertThat(logs.records()).isNotEmpty();
      }
    }
  }

  /** Two orgs under file_lease, composed as the daemon does: the process's shard balance. */
  private void runTwoOrgsUnderAFileLease() throws Exception {
    String more =
        eventLogFile("[Login]", "")
            + """
            coordinate { type = file_lease, file_lease { path = "%s", ttl = 10m, renew_interval = 4m } }
            orgs = [ { name = prod, salesforce {} }, { name = emea, salesforce {} } ]
            """
                .formatted(dir.resolve("orgs").resolve("leader.lease"));
    try (OrgsRun run = OrgsRun.start(config(dir.resolve("orgs").resolve("state.json"), more))) {
      await().atMost(TestTiming.seconds(30)).until(() -> run.gauge("sf2loki_shards_held") == 2);
      exposed.addAll(MetricsReference.families(run.get("/metrics").body()));
    }
  }

  /**
   * Pub/Sub: a corrupt stored id (fallback), a stall (watchdog), an auth error, undecodable
   * payloads one per response (decode errors and a decode stall), a refused topic.
   */
  private void runPubSubWithFaults() throws Exception {
    try (FakePubSub pubsub =
        FakePubSub.builder()
            .tokens(salesforce::isValidToken)
            .standardTopics()
            .deniedTopic("/event/ApiEventStream", TopicSchemas.loginEventStream())
            .managedSubscription(
                ManagedEventSubscription.running(
                    "Report_Managed", FakePubSub.REPORT, ManagedEventSubscription.Replay.EARLIEST))
            .start()) {
      Path state = dir.resolve("pubsub-state.json");
      Files.writeString(state, "{\"pubsub:/event/LoginEventStream\": \"AAAAAAAAAAA=\"}");
      pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.STALL, 1));
      pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.AUTH_ERROR, 1));
      pubsub.publish(FakePubSub.LOGIN, Map.of("Username", "a@example.com", "EventDate", 1L));
      pubsub.inject(new PubSubFault.Commit(1));
      pubsub.publish(FakePubSub.REPORT, Map.of("Username", "a@example.com", "EventDate", 1L));
      for (int i = 0; i < 3; i++) {
        pubsub.publishRaw(FakePubSub.LOGIN, new byte[] {(byte) 0xff});
      }
      String sources =
          """
          sources.pubsub {
            enabled = true
            endpoint = "%s"
            plaintext = true
            topics = ["/event/LoginEventStream", "/event/ApiEventStream", "/event/ReportEvent"]
            managed_subscriptions { "/event/ReportEvent" = Report_Managed }
            default_num_requested = 1
            stall_timeout = 300ms
            reconnect_base = 10ms
            reconnect_max = 100ms
          }
          """
              .formatted(pubsub.target());
      try (ComposedRun run = ComposedRun.start(config(state, sources))) {
        exposed.addAll(
            run.awaitExposed(
                Set.of(
                    "sf2loki_pubsub_events_received_total",
                    "sf2loki_pubsub_pending_credits",
                    "sf2loki_pubsub_stream_up",
                    "sf2loki_pubsub_position_age_seconds",
                    "sf2loki_pubsub_stream_stalls_total",
                    "sf2loki_pubsub_reconnects_total",
                    "sf2loki_pubsub_stream_errors_total",
                    "sf2loki_pubsub_auth_refreshes_total",
                    "sf2loki_pubsub_replay_fallbacks_total",
                    "sf2loki_pubsub_topics_refused_total",
                    "sf2loki_pubsub_decode_stalls_total",
                    "sf2loki_pubsub_commit_errors_total",
                    "sf2loki_decode_errors_total",
                    "sf2loki_schema_cache_size")));
      }
    }
  }

  private static Map<String, String> document(FakeGcsServer gcs) throws Exception {
    var object = gcs.object("sf2loki-test", "state.json");
    if (object.isEmpty()) {
      return Map.of();
    }
    return new com.fasterxml.jackson.databind.ObjectMapper()
        .readValue(
            object.get().data(),
            new com.fasterxml.jackson.core.type.TypeReference<TreeMap<String, String>>() {});
  }

  private static String json(Map<String, String> doc) throws Exception {
    return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(doc);
  }
}
