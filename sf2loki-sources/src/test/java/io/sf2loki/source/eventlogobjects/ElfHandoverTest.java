package io.sf2loki.source.eventlogobjects;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ElfHandoverTest {

  private static final String LOGIN =
      "{\"covered_until\": \"2026-06-30T05:00:00.000Z\", \"ids\": [], \"last_created\":"
          + " \"2026-06-30T07:00:00.000+0000\"}";

  @Test
  void anEventLogObjectStartsWhereItsEventLogFileTypesFilesEnded() {
    assertThat(ElfHandover.of("LoginEventLog", stored("eventlogfile:Login", LOGIN)))
        .contains(
            new ElfHandover.Handover("eventlogfile:Login", Instant.parse("2026-06-30T05:00:00Z")));
  }

  @Test
  void theEventLogFileTypeIsSpelledAsEventLogFileSpellsIt() {
    assertThat(ElfHandover.of("SoapApiEventLog", stored("eventlogfile:API", LOGIN)))
        .containsInstanceOf(ElfHandover.Handover.class);
    assertThat(ElfHandover.of("UriEventLog", stored("eventlogfile:URI", LOGIN)))
        .containsInstanceOf(ElfHandover.Handover.class);
    assertThat(
            ElfHandover.of(
                "MetadataApiOpEventLog", stored("eventlogfile:MetadataApiOperation", LOGIN)))
        .containsInstanceOf(ElfHandover.Handover.class);
  }

  @Test
  void withoutAnEventLogFileCheckpointThereIsNothingToTakeOver() {
    assertThat(ElfHandover.of("LoginEventLog", k -> Optional.empty())).isEmpty();
  }

  @Test
  void aCheckpointWithoutCoveredHoursCannotHandOverAndSaysWhy() {
    String python = "{\"ids\": [], \"last_created\": \"2026-06-30T07:00:00.000+0000\"}";
    assertThat(ElfHandover.of("LoginEventLog", stored("eventlogfile:Login", python)))
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .isInstanceOfSatisfying(
                        ElfHandover.Unusable.class,
                        u -> assertThat(u.why()).contains("records no covered hours")));
  }

  private static java.util.function.Function<String, Optional<String>> stored(
      String key, String value) {
    return k -> Optional.ofNullable(Map.of(key, value).get(k));
  }
}
