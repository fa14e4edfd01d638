package io.sf2loki.source.elo;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.shape.Glob;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Discovery: describeGlobal's queryable *EventLog objects, globs, fields, one clear refusal. */
class EloDiscoveryTest {

  private final EloFake fake = new EloFake();

  @AfterEach
  void stop() throws Exception {
    fake.close();
  }

  private EloDiscovery.Result discover(List<String> include, List<String> exclude)
      throws Exception {
    return new EloDiscovery(
            suffix -> fake.rest.getJson(fake.rest.dataPath(suffix)),
            include.stream().map(Glob::of).toList(),
            exclude.stream().map(Glob::of).toList())
        .discover();
  }

  @Test
  void theQueryableEventLogObjectsAreFoundWithTheirFieldsAndOthersIgnored() throws Exception {
    fake.sf.eventLogObjects().define("LoginEventLog", "LoginKey");
    fake.sf.eventLogObjects().define("ReportEventLog");
    fake.sf.addSObjects("LoginEvent", "ApiAnomalyEventStore");

    EloDiscovery.Result r = discover(List.of("*"), List.of());

    assertThat(r).isInstanceOf(EloDiscovery.Found.class);
    List<EloDiscovery.EloObject> objects = ((EloDiscovery.Found) r).objects();
    assertThat(objects)
        .extracting(EloDiscovery.EloObject::name)
        .containsExactly("LoginEventLog", "ReportEventLog");
    assertThat(objects.get(0).fields()).contains("Timestamp", "RequestIdentifier", "LoginKey");
  }

  @Test
  void includeAndExcludeGlobsSelectTheObjects() throws Exception {
    fake.sf.eventLogObjects().define("LoginEventLog");
    fake.sf.eventLogObjects().define("LoginAsEventLog");
    fake.sf.eventLogObjects().define("ReportEventLog");

    EloDiscovery.Result r = discover(List.of("Login*"), List.of("LoginAs*"));

    assertThat(((EloDiscovery.Found) r).objects())
        .extracting(EloDiscovery.EloObject::name)
        .containsExactly("LoginEventLog");
  }

  @Test
  void anOrgWithoutEventLogObjectsIsUnavailableNamingThePermission() throws Exception {
    EloDiscovery.Result r = discover(List.of("*"), List.of());

    assertThat(r).isInstanceOf(EloDiscovery.Unavailable.class);
    assertThat(((EloDiscovery.Unavailable) r).message()).contains("View Event Log Object Data");
  }

  @Test
  void aUserWithoutThePermissionIsUnavailableNamingIt() throws Exception {
    fake.sf.eventLogObjects().define("LoginEventLog");
    fake.sf.eventLogObjects().revokeAccess();

    EloDiscovery.Result r = discover(List.of("*"), List.of());

    assertThat(((EloDiscovery.Unavailable) r).message())
        .contains("LoginEventLog")
        .contains("View Event Log Object Data");
  }
}
