package io.sf2loki.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ServiceConfig;
import io.sf2loki.testkit.tools.ExternalTool;
import io.sf2loki.testkit.tools.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/systemd/}: the unit verified by {@code systemd-analyze} (when present, see {@link
 * ExternalTool}) and its keys against the daemon's exit codes and shutdown bound.
 */
class SystemdUnitTest {

  static final Path DIR = Path.of("..", "deploy", "systemd");
  static final Path UNIT = DIR.resolve("sf2loki.service");

  @TempDir Path dir;

  @Test
  void theUnitPassesSystemdAnalyzeVerifyWithoutAWarning() throws Exception {
    ToolRun run = analyze("verify", installed().toString());
    assertThat(run.succeeded()).as(run.describe()).isTrue();
    assertThat(run.stderr()).as(run.describe()).isEmpty();
  }

  @Test
  void systemdAnalyzeSecurityRatesTheUnitsExposureOk() throws Exception {
    ToolRun run = analyze("security", "--offline=yes", installed().toString());
    Matcher level =
        Pattern.compile("Overall exposure level for sf2loki.service: ([0-9.]+) (\\S+)")
            .matcher(run.stdout() + run.stderr());
    assertThat(level.find()).as(run.describe()).isTrue();
    assertThat(Double.parseDouble(level.group(1))).as(run.describe()).isLessThan(4.0);
  }

  @Test
  void aFailureIsRestartedButAConfigurationErrorIsNot() throws Exception {
    SystemdUnit unit = SystemdUnit.read(UNIT);
    assertThat(unit.value("Service", "Restart")).isEqualTo("on-failure");
    // docs/reference/cli.md: exit 2 is a configuration or usage error, which every start repeats
    assertThat(Arrays.asList(unit.value("Service", "RestartPreventExitStatus").split("\\s+")))
        .contains("2");
    assertThat(unit.value("Unit", "StartLimitBurst")).isNotNull();
  }

  @Test
  void theStopTimeoutOutlastsTheDaemonsOwnShutdownBound() throws Exception {
    SystemdUnit unit = SystemdUnit.read(UNIT);
    Duration grace =
        ServiceConfig.bind(
                new ConfigLoader(getClass().getClassLoader(), Map.of())
                    .loadString("")
                    .reader()
                    .section("service"))
            .shutdownGrace();
    // the signal handler ends the process within shutdown_grace + 10s
    assertThat(seconds(unit.value("Service", "TimeoutStopSec")))
        .isGreaterThan(grace.plusSeconds(10).toSeconds());
  }

  @Test
  void itRunsAsADedicatedUserOnAReadOnlySystemWritingOnlyItsStateDirectory() throws Exception {
    SystemdUnit unit = SystemdUnit.read(UNIT);
    assertThat(unit.value("Service", "User")).isEqualTo("sf2loki");
    assertThat(unit.value("Service", "ProtectSystem")).isEqualTo("strict");
    assertThat(unit.value("Service", "StateDirectory")).isEqualTo("sf2loki");
    assertThat(unit.value("Service", "PrivateTmp")).isEqualTo("yes");
    assertThat(unit.value("Service", "NoNewPrivileges")).isEqualTo("yes");
    assertThat(unit.value("Service", "ExecStart"))
        .contains("-jar /opt/sf2loki/sf2loki-daemon.jar --config /etc/sf2loki/sf2loki.conf");
  }

  @Test
  void theEnvironmentFileExampleHoldsOnlyAssignmentsAndComments() throws Exception {
    List<String> lines = Files.readAllLines(DIR.resolve("sf2loki.env"));
    assertThat(lines.stream().filter(l -> !l.isBlank() && !l.startsWith("#")))
        .isNotEmpty()
        .allMatch(l -> l.matches("[A-Z_][A-Z0-9_]*=.*"), "NAME=value");
  }

  /**
   * The unit as installed on this machine: its {@code /usr/bin/java} replaced by this JVM's, since
   * {@code verify} checks that the command exists and a JDK need not live there.
   */
  private Path installed() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path unit = dir.resolve("sf2loki.service");
    Files.writeString(unit, Files.readString(UNIT).replace("/usr/bin/java ", java + " "));
    return unit;
  }

  private ToolRun analyze(String... args) throws Exception {
    Path tool =
        ExternalTool.require(
            "systemd-analyze",
            "SF2LOKI_SYSTEMD_ANALYZE",
            "apt-get install -y --no-install-recommends systemd");
    List<String> command = new java.util.ArrayList<>(List.of(tool.toString()));
    command.addAll(List.of(args));
    return ToolRun.run(dir, Duration.ofSeconds(60), "", command);
  }

  private static long seconds(String systemdTime) {
    Matcher m = Pattern.compile("(\\d+)(s|min)?").matcher(systemdTime);
    assertThat(m.matches()).as("a time in s or min: %s", systemdTime).isTrue();
    long n = Long.parseLong(m.group(1));
    return "min".equals(m.group(2)) ? n * 60 : n;
  }
}
