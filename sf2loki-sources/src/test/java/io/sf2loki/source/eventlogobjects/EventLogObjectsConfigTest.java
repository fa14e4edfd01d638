package io.sf2loki.source.eventlogobjects;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.shape.CategoryClaims;
import io.sf2loki.shape.OverlapGuard;
import io.sf2loki.spi.SourceProvider;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventLogObjectsConfigTest {

  static ConfigReader root(String body) {
    return ConfigReader.of(
        ConfigFactory.parseString(body)
            .withFallback(ConfigFactory.parseResources("reference.conf"))
            .resolve());
  }

  @Test
  void presetsAndKnownObjectsGetTheirTimestampFieldAndBigObjectDefaults() {
    ConfigReader root =
        root(
            "sources.eventlog_objects { objects = [{name = LoginEvent}, {name = Custom__c,"
                + " timestamp_field = CreatedDate, poll_interval = 30s}], presets ="
                + " [login_history, setup_audit_trail] }");
    EventLogObjectsConfig c = EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();

    assertThat(c.objects())
        .extracting(ObjectSpec::name, ObjectSpec::timestampField, ObjectSpec::bigObject)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("LoginEvent", "EventDate", true),
            org.assertj.core.groups.Tuple.tuple("Custom__c", "CreatedDate", false),
            org.assertj.core.groups.Tuple.tuple("LoginHistory", "LoginTime", false),
            org.assertj.core.groups.Tuple.tuple("SetupAuditTrail", "CreatedDate", false));
    assertThat(c.objects().get(1).pollInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.objects().get(0).settleWindow()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void everyMistakeIsReportedWithItsPath() {
    ConfigReader root =
        root(
            "sources.eventlog_objects { objects = [{name = \"Bad Name\"}, {name = LoginEvent,"
                + " sample = 2, labels = [event_type], colour = red}, {timestamp_field = X}],"
                + " presets = [everything] }");
    EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));

    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactlyInAnyOrder(
            "sources.eventlog_objects.objects.0.name ('Bad Name') must match ^[A-Za-z0-9_]+$",
            "sources.eventlog_objects.objects.1.colour is not an object key (allowed: [big_object,"
                + " labels, lookback, name, poll_interval, sample, settle_window,"
                + " structured_metadata_fields, timestamp_field])",
            "sources.eventlog_objects.objects.1.labels: 'event_type' is reserved and cannot be"
                + " promoted",
            "sources.eventlog_objects.objects.1.sample (2) must be a number greater than 0 and at"
                + " most 1",
            "sources.eventlog_objects.objects.2.name must not be empty",
            "sources.eventlog_objects.presets: unknown preset 'everything' (known:"
                + " event_log_objects, login_history, rtem_stored_events, setup_audit_trail,"
                + " threat_detection)");
  }

  @Test
  void theProviderIsRegisteredAndClaimsItsCategoriesForTheOverlapGuard() {
    ConfigReader root =
        root(
            "salesforce { client_id = cid, auth_mode = client_credentials, client_secret = s,"
                + " login_url = \"https://acme.my.salesforce.com\" },"
                + " sources.eventlog_objects { enabled = true, objects = [{name = LoginEvent}] }");
    SourceProvider provider =
        ProviderRegistry.sources(getClass().getClassLoader()).all().stream()
            .filter(p -> p.type().equals("eventlog_objects"))
            .findFirst()
            .orElseThrow();
    SourceProvider.Factory factory = provider.configure(root.section("sources.eventlog_objects"));
    assertThat(((CategoryClaims) factory).explicitCategories())
        .isEqualTo(Map.of("LoginEvent", "login"));

    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put("eventlog_objects", factory);
    enabled.put("pubsub", new Claims(Map.of("/event/LoginEventStream", "login")));
    OverlapGuard.check(enabled, root.section("sources"));
    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .asString()
        .startsWith(
            "sources.eventlog_objects: event category 'login' is ingested by more than one source");
  }

  record Claims(Map<String, String> explicitCategories)
      implements SourceProvider.Factory, CategoryClaims {
    @Override
    public List<io.sf2loki.spi.Source> create(io.sf2loki.spi.SourceEnvironment environment) {
      return List.of();
    }
  }

  @Test
  void anEventLogObjectIsReadByTimestampWithAFiftyMinuteSettleByDefault() {
    ConfigReader root = root("sources.eventlog_objects { objects = [{name = LoginEventLog}] }");
    EventLogObjectsConfig c = EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();

    assertThat(c.objects().get(0).timestampField()).isEqualTo("Timestamp");
    assertThat(c.objects().get(0).bigObject()).isFalse();
    assertThat(c.objects().get(0).settleWindow()).isEqualTo(Duration.ofMinutes(50));
  }

  @Test
  void anEventLogObjectRefusesASettleBelowItsFortyFiveMinuteLag() {
    ConfigReader root =
        root(
            "sources.eventlog_objects { objects = [{name = LoginEventLog, settle_window = 10m,"
                + " timestamp_field = EventDate}] }");
    EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));

    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactlyInAnyOrder(
            "sources.eventlog_objects.objects.0.timestamp_field must be Timestamp for an Event Log"
                + " Object (*EventLog)",
            "sources.eventlog_objects.objects.0.settle_window (10m) must be at least 45m for an"
                + " Event Log Object: rows become queryable up to 45 minutes late");
  }
}
