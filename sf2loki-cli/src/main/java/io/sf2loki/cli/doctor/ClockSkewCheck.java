package io.sf2loki.cli.doctor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code clock_skew}: Salesforce's clock against this host's, from the {@code Date} header of the
 * responses {@code auth} received. Up to 30 s is noise (PASS); beyond it the sources apply the skew
 * to their windows (WARN); beyond 180 s, the lifetime of a JWT assertion, tokens fail and Loki
 * refuses timestamps (FAIL).
 */
final class ClockSkewCheck implements Check {

  static final Duration NOISE = Duration.ofSeconds(30);
  static final Duration BREAKS = Duration.ofSeconds(180);

  @Override
  public String name() {
    return "clock_skew";
  }

  @Override
  public List<String> requires() {
    return List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) {
    Optional<Duration> sample = context.salesforce().skew();
    if (sample.isEmpty()) {
      return new CheckResult.Skip("no Salesforce response carried a Date header");
    }
    Duration skew = sample.get();
    long seconds = skew.toSeconds();
    String detail =
        "Salesforce's clock is "
            + Math.abs(seconds)
            + "s "
            + (skew.isNegative() ? "behind" : "ahead of")
            + " this host's";
    if (skew.abs().compareTo(NOISE) <= 0) {
      return new CheckResult.Pass(detail);
    }
    String fix = "synchronise this host's clock (NTP, chrony)";
    if (skew.abs().compareTo(BREAKS) <= 0) {
      return new CheckResult.Warn(
          detail + "; the sources apply it to settle windows and lookbacks", fix);
    }
    return new CheckResult.Fail(
        detail + "; JWT assertions (valid 180s) and Loki's timestamp windows break", fix);
  }
}
