package io.sf2loki.source.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** state set's value check for an Event Log Object's checkpoint token. */
class CheckpointValuesTest {

  @Test
  void anEventLogObjectKeyAcceptsItsFromToken() {
    assertThat(
            CheckpointValues.problem(
                "eventlog_objects:LoginEventLog",
                "{\"from\": \"2026-07-01T00:00:00.000Z\", \"v\": 1}",
                false))
        .isEmpty();
  }

  @Test
  void anEventLogObjectKeyRefusesTheKeysetCursorForm() {
    assertThat(
            CheckpointValues.problem(
                "eventlog_objects:LoginEventLog",
                "{\"ids\": [], \"last_ts\": \"2026-07-01T00:00:00.000+0000\"}",
                false))
        .get()
        .asString()
        .contains("Event Log Object");
  }

  @Test
  void anyOtherObjectKeepsTheKeysetCursorForm() {
    assertThat(
            CheckpointValues.problem(
                "eventlog_objects:LoginEvent",
                "{\"ids\": [], \"last_ts\": \"2026-07-01T00:00:00.000+0000\"}",
                false))
        .isEmpty();
  }
}
