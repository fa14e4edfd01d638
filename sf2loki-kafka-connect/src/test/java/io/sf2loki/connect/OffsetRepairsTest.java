package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OffsetRepairsTest {

  private static Map<Map<String, ?>, Map<String, ?>> one(
      Map<String, ?> partition, Map<String, ?> offset) {
    Map<Map<String, ?>, Map<String, ?>> offsets = new HashMap<>();
    offsets.put(partition, offset);
    return offsets;
  }

  @Test
  void aTokenItsSourceCanParseMayBeWritten() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"),
                one(
                    Map.of("org", "prod", "key", "eventlogfile:Login"),
                    Map.of("token", "2026-07-01T00:00:00.000+0000"))))
        .isEmpty();
  }

  @Test
  void aNullOffsetResetsThePartition() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"), one(Map.of("org", "prod", "key", "eventlogfile:Login"), null)))
        .isEmpty();
  }

  @Test
  void aTokenItsSourceCannotParseIsRefusedWithStateSetsMessage() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"),
                one(
                    Map.of("org", "prod", "key", "eventlogfile:Login"),
                    Map.of("token", "garbage"))))
        .singleElement()
        .asString()
        .contains("refusing token for 'eventlogfile:Login'")
        .contains("value must be a JSON object {\"ids\": [...], \"last_created\"");
  }

  @Test
  void anOrgThatIsNotConfiguredIsRefused() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"), one(Map.of("org", "emea", "key", "apexlog"), Map.of("token", "x"))))
        .singleElement()
        .asString()
        .contains("org 'emea' is not configured");
  }

  @Test
  void aPartitionOrOffsetOfAnotherShapeIsRefused() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"), one(Map.of("key", "apexlog"), Map.of("token", "x"))))
        .singleElement()
        .asString()
        .contains("must be {\"org\"");
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"),
                one(Map.of("org", "prod", "key", "apexlog"), Map.of("position", 5))))
        .singleElement()
        .asString()
        .contains("offset must be {\"token\"");
  }

  @Test
  void theReservedStoreKeysAreNoCheckpoints() {
    assertThat(
            OffsetRepairs.problems(
                Set.of("prod"),
                one(Map.of("org", "prod", "key", "__fence_epoch__"), Map.of("token", "7"))))
        .singleElement()
        .asString()
        .contains("is not a checkpoint key");
  }
}
