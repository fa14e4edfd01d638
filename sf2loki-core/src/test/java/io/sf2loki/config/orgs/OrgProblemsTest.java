package io.sf2loki.config.orgs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigProblem;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrgProblemsTest {

  private static final Set<String> OWN = Set.of("sink.loki.tenant_id", "sink.loki.labels");

  @Test
  void aProblemOfTheOrgsOwnSectionsIsNamedUnderTheOrg() {
    List<ConfigProblem> out =
        OrgProblems.of(
            List.of(new ConfigProblem("salesforce.client_id", "salesforce.client_id is missing")),
            "orgs[1]",
            OWN);

    assertThat(out)
        .containsExactly(
            new ConfigProblem(
                "orgs[1].salesforce.client_id", "orgs[1].salesforce.client_id is missing"));
  }

  @Test
  void aSharedSectionProblemOfALaterOrgIsKeptSoTheOrgIsNeverDroppedSilently() {
    ConfigProblem shared = new ConfigProblem("sink.loki.url", "sink.loki.url is not a URL");

    assertThat(OrgProblems.of(List.of(shared), "orgs[1]", OWN)).containsExactly(shared);
  }
}
