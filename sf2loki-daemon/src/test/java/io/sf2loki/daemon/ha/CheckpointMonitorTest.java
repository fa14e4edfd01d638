package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointMonitorTest {

  private static Map<String, String> doc(String epoch, String logFileMark, String objectMark) {
    return Map.of(
        "__fence_epoch__",
        epoch,
        "eventlogfile:API",
        "{\"ids\": [], \"last_created\": \"" + logFileMark + "\"}",
        "eventlog_objects:LoginHistory",
        "{\"ids\": [], \"last_ts\": \"" + objectMark + "\"}");
  }

  @Test
  void documentsThatOnlyMoveForwardAreNoRegression() {
    CheckpointMonitor monitor = CheckpointMonitor.fed();

    monitor.observe(doc("1", "2026-07-01T10:00:00.000+0000", "2026-07-01T10:00:00.000+0000"));
    monitor.observe(doc("2", "2026-07-01T10:00:01.000+0000", "2026-07-01T10:00:00.000+0000"));

    assertThat(monitor.regressions()).isEmpty();
    assertThat(monitor.samples()).isEqualTo(2);
  }

  @Test
  void anEventObjectWatermarkThatMovedBackwardsIsARegression() {
    CheckpointMonitor monitor = CheckpointMonitor.fed();

    monitor.observe(doc("1", "2026-07-01T10:00:00.000+0000", "2026-07-01T10:00:05.000+0000"));
    monitor.observe(doc("1", "2026-07-01T10:00:00.000+0000", "2026-07-01T10:00:04.000+0000"));

    assertThat(monitor.regressions())
        .singleElement()
        .asString()
        .startsWith("eventlog_objects:LoginHistory went from");
  }

  @Test
  void anEpochThatMovedBackwardsIsARegression() {
    CheckpointMonitor monitor = CheckpointMonitor.fed();

    monitor.observe(doc("5", "2026-07-01T10:00:00.000+0000", "2026-07-01T10:00:00.000+0000"));
    monitor.observe(doc("4", "2026-07-01T10:00:00.000+0000", "2026-07-01T10:00:00.000+0000"));

    assertThat(monitor.regressions()).containsExactly("__fence_epoch__ went from 5 to 4");
  }
}
