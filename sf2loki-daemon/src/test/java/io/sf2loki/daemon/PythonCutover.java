package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.engine.shard.MigrationPlan;
import io.sf2loki.engine.shard.StateMigration;
import io.sf2loki.source.checkpoint.PythonCheckpoints;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two orgs the Python sf2loki left mid-stream: for each, EventLogFile files, object records and
 * Pub/Sub events it already shipped (its checkpoints in one multi-org document, {@code org=<name>:}
 * keys) and ones it had not reached yet. After {@code state migrate}, the composed daemon must ship
 * exactly the ones not reached: no gap, no duplicate. The store is the caller's.
 */
final class PythonCutover implements AutoCloseable {

  static final String OBJECT = "MyAudit__c";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx").withZone(ZoneOffset.UTC);

  /** One org's fakes and what the Python sf2loki had not shipped yet. */
  private record Org(
      String name,
      FakeSalesforce salesforce,
      FakePubSub pubsub,
      int elfRows,
      int objects,
      int events) {}

  private final FakeLoki loki = FakeLoki.start();
  private final Org prod;
  private final Org emea;
  private final Map<String, String> pythonDocument = new LinkedHashMap<>();
  private final Instant hour =
      Instant.now().minus(4, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);

  PythonCutover() throws Exception {
    FakeSalesforce prodSf =
        FakeSalesforce.builder().clientId("prod-app").clientSecret("prod-secret").build();
    FakeSalesforce emeaSf =
        FakeSalesforce.builder()
            .clientId("emea-app")
            .clientSecret("emea-secret")
            .orgId("00D0000000EMEA1AAA")
            .build();
    prod =
        midStream(
            "prod",
            prodSf,
            FakePubSub.builder().standardTopics().tokens(prodSf::isValidToken).start(),
            30,
            5,
            3,
            4,
            5,
            3);
    emea =
        midStream(
            "emea",
            emeaSf,
            FakePubSub.builder()
                .standardTopics()
                .tokens(emeaSf::isValidToken)
                .orgId("00D0000000EMEA1AAA")
                .start(),
            20,
            7,
            2,
            3,
            4,
            1);
  }

  /**
   * Gives {@code name}'s org a shipped and an unshipped log file, {@code shipped + fresh} object
   * records and {@code published} events of which the first {@code reached} were shipped, and
   * writes the Python checkpoints of exactly the shipped ones.
   */
  private Org midStream(
      String name,
      FakeSalesforce salesforce,
      FakePubSub pubsub,
      int shippedRows,
      int freshRows,
      int shippedObjects,
      int freshObjects,
      int published,
      int reached) {
    String prefix = "org=" + name + ":";
    LogFileSpec shipped =
        salesforce.addLogFile(
            "Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), shippedRows);
    salesforce.addLogFile(
        "Login",
        "Hourly",
        hour.plus(1, ChronoUnit.HOURS),
        hour.plus(130, ChronoUnit.MINUTES),
        freshRows);
    pythonDocument.put(
        prefix + "eventlogfile:Login",
        "{\"ids\": [[\""
            + shipped.id()
            + "\", \""
            + SALESFORCE.format(shipped.createdDate())
            + "\"]], \"last_created\": \""
            + SALESFORCE.format(shipped.createdDate())
            + "\"}");

    salesforce.addSObjects(OBJECT);
    salesforce.eventObjects().define(OBJECT, "EventDate", false);
    Instant t = Instant.now().minus(40, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < shippedObjects + freshObjects; i++) {
      Instant at = t.plus(i, ChronoUnit.MINUTES);
      ids.add(salesforce.eventObjects().add(OBJECT, at));
      if (i == shippedObjects - 1) {
        pythonDocument.put(
            prefix + "eventlog_objects:" + OBJECT,
            "{\"ids\": [\""
                + String.join("\", \"", ids)
                + "\"], \"last_ts\": \""
                + SALESFORCE.format(at)
                + "\"}");
      }
    }

    for (int i = 0; i < published; i++) {
      ByteString id = publish(pubsub, name, i);
      if (i == reached - 1) {
        pythonDocument.put(
            prefix + "pubsub:" + FakePubSub.LOGIN,
            Base64.getEncoder().encodeToString(id.toByteArray()));
      }
    }
    return new Org(name, salesforce, pubsub, freshRows, freshObjects, published - reached);
  }

  private static ByteString publish(FakePubSub pubsub, String org, int index) {
    return pubsub.publish(
        FakePubSub.LOGIN,
        Map.of(
            "EventIdentifier", org + "-ev-" + index,
            "Username", "user" + index + "@example.com",
            "EventDate", System.currentTimeMillis()));
  }

  /** The Python sf2loki's multi-org document, as it writes it, with {@code extra} keys. */
  String pythonDocument(Map<String, String> extra) throws Exception {
    Map<String, String> doc = new LinkedHashMap<>(pythonDocument);
    doc.putAll(extra);
    return JSON.writeValueAsString(doc);
  }

  /** The multi-org configuration with {@code stateAndCoordinator} as its shared sections. */
  String config(String stateAndCoordinator) {
    return """
        salesforce.auth_mode = client_credentials
        sources {
          allow_overlap = true
          eventlogfile { enabled = true, event_types = [Login], interval = Hourly
                         poll_interval = 1s, lookback = 12h }
          eventlog_objects { enabled = true
            objects = [{ name = %s, timestamp_field = EventDate, settle_window = 0
                         poll_interval = 1s, lookback = 2h }] }
          pubsub { enabled = true, plaintext = true, topics = ["%s"] }
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        service.shutdown_grace = %dms
        %s
        orgs = [%s, %s]
        """
        .formatted(
            OBJECT,
            FakePubSub.LOGIN,
            loki.baseUri(),
            TestTiming.seconds(5).toMillis(),
            stateAndCoordinator,
            orgEntry(prod),
            orgEntry(emea));
  }

  private static String orgEntry(Org org) {
    return """
        { name = %s
          salesforce { login_url = "%s", client_id = %s-app, client_secret = %s-secret }
          sources.pubsub.endpoint = "%s" }
        """
        .formatted(
            org.name(), org.salesforce().baseUrl(), org.name(), org.name(), org.pubsub().target());
  }

  /** {@code state migrate} of {@code hocon}, as the command runs it. */
  static MigrationPlan migrate(String hocon) {
    ClassLoader loader = PythonCutover.class.getClassLoader();
    Shards shards = Shards.bind(new ConfigLoader(loader, Map.of()).loadString(hocon), loader);
    try (StateMigration migration =
        StateMigration.open(
            shards,
            new StoreEnvironment(
                !shards.first().config().isCoordinated(),
                Clock.systemUTC(),
                new SimpleMeterRegistry()),
            new PythonCheckpoints())) {
      MigrationPlan plan = migration.plan(false);
      assertThat(plan.refusals()).isEmpty();
      migration.apply(plan);
      return plan;
    }
  }

  /**
   * Runs the daemon on {@code hocon} until every org shipped what the Python sf2loki had not, plus
   * one event published while it runs, and checks that nothing else arrives.
   */
  void daemonResumesEveryOrgAndSourceExactlyWhereThePythonOneStopped(String hocon)
      throws Exception {
    try (OrgsRun run = OrgsRun.start(hocon)) {
      for (Org org : List.of(prod, emea)) {
        await(org.name() + " resumes every source")
            .atMost(TestTiming.seconds(60))
            .until(
                () ->
                    shipped(org, "eventlogfile") == org.elfRows()
                        && shipped(org, "eventlog_objects") == org.objects()
                        && shipped(org, "pubsub") == org.events());
      }
      publish(prod.pubsub(), "prod", 100);
      publish(emea.pubsub(), "emea", 100);
      await("nothing read twice over further poll cycles, nothing missed")
          .during(Duration.ofSeconds(2))
          .atMost(TestTiming.seconds(30))
          .until(
              () ->
                  List.of(prod, emea).stream()
                      .allMatch(
                          o ->
                              shipped(o, "eventlogfile") == o.elfRows()
                                  && shipped(o, "eventlog_objects") == o.objects()
                                  && shipped(o, "pubsub") == o.events() + 1));
      assertThat(run.running()).isTrue();
    }
    List<AcceptedEntry> all = loki.entries();
    assertThat(new HashSet<>(all.stream().map(e -> e.labels() + e.line()).toList()))
        .as("no entry twice")
        .hasSize(all.size());
    assertThat(all).hasSize(5 + 4 + 3 + 7 + 3 + 4);
  }

  private long shipped(Org org, String source) {
    return loki.entries().stream()
        .filter(e -> org.name().equals(e.labels().get("org")))
        .filter(e -> source.equals(e.labels().get("source")))
        .count();
  }

  @Override
  public void close() {
    loki.close();
    for (Org org : List.of(prod, emea)) {
      org.pubsub().close();
      org.salesforce().close();
    }
  }
}
