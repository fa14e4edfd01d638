package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.shape.CategoryClaims;
import io.sf2loki.shape.OverlapGuard;
import io.sf2loki.source.eventlogobjects.EventLogObjectsSourceProvider;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.SourceProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** EventLogFile under the one-category-one-source rule, next to a real eventlog_objects section. */
class EventLogFileOverlapIT {

  private static final String SALESFORCE =
      "salesforce { client_id = cid, auth_mode = client_credentials, client_secret = s,"
          + " login_url = \"https://acme.my.salesforce.com\" }\n";

  private final ElfFixture fx = new ElfFixture();

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private static ConfigReader root(String hocon) {
    return new ConfigLoader(EventLogFileOverlapIT.class.getClassLoader(), Map.of())
        .loadString(SALESFORCE + hocon)
        .reader();
  }

  /** Binds both sections through their providers and runs the guard, as startup does. */
  private static CategoryOwnership guard(ConfigReader root) {
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    enabled.put(
        "eventlog_objects",
        new EventLogObjectsSourceProvider().configure(root.section("sources.eventlog_objects")));
    enabled.put(
        "eventlogfile",
        new EventLogFileSourceProvider().configure(root.section("sources.eventlogfile")));
    return OverlapGuard.check(enabled, root.section("sources"));
  }

  @Test
  void factoryClaimsTheCategoriesOfItsExplicitTypesAndDeclaresDiscovery() {
    ConfigReader root = root("sources.eventlogfile.event_types = [Login, \"*\", ReportExport]");
    CategoryClaims claims =
        (CategoryClaims)
            new EventLogFileSourceProvider().configure(root.section("sources.eventlogfile"));
    assertThat(claims.explicitCategories())
        .containsExactly(Map.entry("Login", "login"), Map.entry("ReportExport", "reportexport"));
    assertThat(claims.discovers()).isTrue();
  }

  @Test
  void loginExplicitOnBothSourcesIsAConfigurationError() {
    ConfigReader root =
        root(
            "sources.eventlog_objects.objects = [{name = LoginEvent}]\n"
                + "sources.eventlogfile.event_types = [Login, API]");
    guard(root);
    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactly(
            "sources.eventlog_objects: event category 'login' is ingested by more than one"
                + " source: sources.eventlog_objects (LoginEvent) and sources.eventlogfile (Login);"
                + " keep it on one source, or set sources.allow_overlap = true to ingest it twice"
                + " on purpose");
  }

  @Test
  void allowOverlapPermitsTheSameCategoryOnBothSources() {
    ConfigReader root =
        root(
            "sources { allow_overlap = true, eventlog_objects.objects = [{name = LoginEvent}],"
                + " eventlogfile.event_types = [Login] }");
    guard(root);
    assertThat(root.problems()).isEmpty();
  }

  @Test
  void wildcardDiscoverySkipsACategoryTheObjectsSourceListsExplicitly() throws Exception {
    ConfigReader root =
        root(
            "sources.eventlog_objects.objects = [{name = LoginEvent}]\n"
                + "sources.eventlogfile.event_types = [\"*\"]");
    fx.ownership = guard(root);
    assertThat(root.problems()).isEmpty();
    fx.file("Login", 30, 2);
    fx.file("API", 30, 3);
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("*"))).cycleOnce(ctx);
    assertThat(ctx.rowsOf("Login")).isEmpty();
    assertThat(ctx.rowsOf("API")).hasSize(3);
    assertThat(fx.sf.queries()).noneMatch(q -> q.contains("EventType='Login'"));
  }

  @Test
  void wildcardDiscoveryWithAllowOverlapIngestsEveryType() throws Exception {
    ConfigReader root =
        root(
            "sources { allow_overlap = true, eventlog_objects.objects = [{name = LoginEvent}],"
                + " eventlogfile.event_types = [\"*\"] }");
    fx.ownership = guard(root);
    fx.file("Login", 30, 2);
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(ElfFixture.config(List.of("*"))).cycleOnce(ctx);
    assertThat(ctx.rowsOf("Login")).hasSize(2);
  }
}
