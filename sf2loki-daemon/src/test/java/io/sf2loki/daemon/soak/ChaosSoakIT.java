package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short soak of the gate: about a minute of chaos per store with a fresh seed each run
 * (printed; {@code -Dsoak.seed=N} replays one, {@code -Dsoak.seconds=N} changes the length). Runs
 * in the integration-test phase, after the shaded jar is built, which it runs.
 */
class ChaosSoakIT {

  @Test
  @Timeout(value = 12, unit = TimeUnit.MINUTES)
  void
      underRandomFaultsNothingIsLostDuplicatesStayBoundedCheckpointsNeverRegressAndEpochsHaveOneLeader()
          throws Exception {
    List<String> args =
        List.of(
            "--seconds", System.getProperty("soak.seconds", "90"),
            "--jar", System.getProperty("soak.jar", "target/sf2loki-daemon.jar"),
            "--out", System.getProperty("soak.out", "target/soak-it"));
    if (System.getProperty("soak.seed") != null) {
      args = new java.util.ArrayList<>(args);
      args.addAll(List.of("--seed", System.getProperty("soak.seed")));
    }
    SoakOptions options = SoakOptions.parse(args);
    System.out.println(
        "soak seed " + options.seed() + " (replay: -Dsoak.seed=" + options.seed() + ")");

    List<SoakReport> reports = SoakMain.run(options, System.out);

    for (SoakReport report : reports) {
      System.out.println(report.render());
    }
    assertThat(reports).extracting(SoakReport::store).containsExactlyElementsOf(options.stores());
    for (SoakReport report : reports) {
      assertThat(report.violations())
          .as(
              "%s store, seed %d; logs in %s",
              report.store().type(),
              options.seed(),
              Path.of(System.getProperty("soak.out", "target/soak-it")).toAbsolutePath())
          .isEmpty();
      assertThat(report.faults().keySet()).containsExactlyInAnyOrder(FaultKind.values());
    }
  }
}
