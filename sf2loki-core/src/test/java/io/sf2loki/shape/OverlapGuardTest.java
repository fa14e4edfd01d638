package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverlapGuardTest {

  record Claiming(Map<String, String> explicitCategories, boolean discovers)
      implements SourceProvider.Factory, CategoryClaims {
    @Override
    public List<io.sf2loki.spi.Source> create(SourceEnvironment environment) {
      return List.of();
    }
  }

  static Claiming claims(boolean discovers, String... ids) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String id : ids) {
      m.put(
          id,
          id.contains("Event") || id.contains("/") || id.equals("LoginHistory")
              ? Categories.ofIdentifier(id)
              : Categories.ofElfType(id));
    }
    return new Claiming(m, discovers);
  }

  static ConfigReader sources(String hocon) {
    return ConfigReader.of(ConfigFactory.parseString(hocon).resolve()).section("sources");
  }

  @Test
  void categoriesStripStreamStoreAndEventSuffixes() {
    assertThat(Categories.ofIdentifier("/event/LoginEventStream")).isEqualTo("login");
    assertThat(Categories.ofIdentifier("ApiAnomalyEventStore")).isEqualTo("apianomaly");
    assertThat(Categories.ofIdentifier("LoginHistory")).isEqualTo("login");
    assertThat(Categories.ofIdentifier("Event")).isEqualTo("event");
    assertThat(Categories.ofElfType("Report Export")).isEqualTo("reportexport");
  }

  @Test
  void anEventLogObjectIsTheCategoryOfItsEventLogFileType() {
    assertThat(Categories.ofIdentifier("LoginEventLog")).isEqualTo(Categories.ofElfType("Login"));
    assertThat(Categories.ofIdentifier("ApiTotalUsageEventLog"))
        .isEqualTo(Categories.ofElfType("ApiTotalUsage"));
    assertThat(Categories.ofIdentifier("UriEventLog")).isEqualTo(Categories.ofElfType("URI"));
    assertThat(Categories.ofIdentifier("MetadataApiOpEventLog"))
        .isEqualTo(Categories.ofElfType("MetadataApiOperation"));
    assertThat(Categories.ofIdentifier("SoapApiEventLog")).isEqualTo(Categories.ofElfType("API"));
  }

  @Test
  void anEventLogObjectAndItsEventLogFileTypeOnTwoSourcesIsAStartupError() {
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put("eventlogfile", claims(true, "Login"));
    enabled.put("eventlog_objects", claims(false, "LoginEventLog"));
    ConfigReader sources = sources("sources { allow_overlap = false }");

    OverlapGuard.check(enabled, sources);

    assertThat(sources.problems()).isNotEmpty();
  }

  @Test
  void sameCategoryOnTwoSourcesIsAStartupErrorNamingBoth() {
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put("eventlogfile", claims(true, "Login", "API"));
    enabled.put("eventlog_objects", claims(false, "LoginEvent", "SetupAuditTrail"));
    ConfigReader sources = sources("sources { allow_overlap = false }");

    OverlapGuard.check(enabled, sources);

    assertThat(sources.problems())
        .extracting(ConfigProblem::message)
        .containsExactly(
            "sources.eventlog_objects: event category 'login' is ingested by more than one source:"
                + " sources.eventlog_objects (LoginEvent) and sources.eventlogfile (Login); keep it"
                + " on one source, or set sources.allow_overlap = true to ingest it twice on"
                + " purpose");
  }

  @Test
  void allowOverlapPermitsIt() {
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put("eventlogfile", claims(false, "Login"));
    enabled.put("eventlog_objects", claims(false, "LoginHistory"));
    ConfigReader sources = sources("sources { allow_overlap = true }");
    OverlapGuard.check(enabled, sources);
    assertThat(sources.problems()).isEmpty();
  }

  @Test
  void wildcardDiscoverySkipsCategoriesOwnedElsewhere() {
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put("eventlogfile", claims(true));
    enabled.put("eventlog_objects", claims(false, "LoginEvent"));
    enabled.put("pubsub", claims(true));
    CategoryOwnership owners =
        OverlapGuard.check(enabled, sources("sources { allow_overlap = false }"));

    assertThat(owners.mayIngestDiscovered("eventlogfile", "login")).isFalse(); // explicit elsewhere
    assertThat(owners.mayIngestDiscovered("eventlogfile", "api")).isTrue();
    assertThat(owners.mayIngestDiscovered("pubsub", "api")).isTrue(); // streaming wins
    assertThat(owners.mayIngestDiscovered("eventlogfile", "api")).isFalse();
    assertThat(owners.mayIngestDiscovered("eventlogfile", "report")).isTrue();
  }
}
