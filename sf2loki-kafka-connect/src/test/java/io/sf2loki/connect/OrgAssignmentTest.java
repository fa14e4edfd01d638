package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OrgAssignmentTest {

  @Test
  void eachOrgIsWholeInExactlyOneTaskSpreadRoundRobin() {
    assertThat(OrgAssignment.spread(List.of("a", "b", "c", "d", "e"), 2))
        .containsExactly(List.of("a", "c", "e"), List.of("b", "d"));
  }

  @Test
  void neverMoreTasksThanOrgs() {
    assertThat(OrgAssignment.spread(List.of("prod", "emea"), 8))
        .containsExactly(List.of("prod"), List.of("emea"));
  }

  @Test
  void aSingleOrgConfigurationIsOneTask() {
    assertThat(OrgAssignment.spread(List.of("default"), 3)).containsExactly(List.of("default"));
  }

  @Test
  void zeroTasksIsRefused() {
    assertThatThrownBy(() -> OrgAssignment.spread(List.of("a"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tasks.max");
  }
}
