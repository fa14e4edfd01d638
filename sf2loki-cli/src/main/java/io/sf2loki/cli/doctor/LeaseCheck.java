package io.sf2loki.cli.doctor;

import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.coordinate.filelease.FileLeaseConfig;
import io.sf2loki.spi.LeaseInfo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * {@code lease}: who holds the leader lease, read through the coordinator's lease inspector without
 * joining the election; under {@code file_lease} also a write probe ({@code
 * .sf2loki-doctor-coordinator-probe}) in the lease directory. SKIP under {@code noop}.
 */
final class LeaseCheck implements Check {

  static final String PROBE = ".sf2loki-doctor-coordinator-probe";

  @Override
  public String name() {
    return "lease";
  }

  @Override
  public CheckResult run(DoctorContext context) {
    Sf2LokiConfig config = context.config();
    Optional<LeaseInfo> inspected =
        config
            .coordinator()
            .inspector(context.clock(), context.variables())
            .map(inspector -> inspector.inspect());
    if (inspected.isEmpty()) {
      return new CheckResult.Skip(
          "coordinate.type = " + config.coordinatorType() + ": there is no lease");
    }
    LeaseInfo lease = inspected.get();
    if ("file_lease".equals(config.coordinatorType())) {
      Optional<CheckResult> unwritable = probeDirectory(config);
      if (unwritable.isPresent()) {
        return unwritable.get();
      }
    }
    String where = lease.location();
    String holder = lease.holder().orElse("an unnamed holder");
    String epoch = lease.epoch().isPresent() ? " at epoch " + lease.epoch().getAsLong() : "";
    return switch (lease.state()) {
      case HELD ->
          new CheckResult.Pass(
              where
                  + " held by "
                  + holder
                  + lease.expires().map(e -> " until " + e).orElse("")
                  + epoch);
      case ABSENT ->
          new CheckResult.Pass(where + " does not exist yet; the first replica creates it");
      case EXPIRED ->
          new CheckResult.Warn(
              where
                  + " expired"
                  + lease.expires().map(e -> " at " + e).orElse("")
                  + " (last holder "
                  + holder
                  + epoch
                  + "): no replica is leading",
              "start sf2loki, or find out why its replicas stopped renewing (their logs, /readyz)");
      case UNREADABLE ->
          new CheckResult.Fail(
              where + " cannot be read: " + lease.detail().orElse("unknown error"),
              "k8s_lease".equals(config.coordinatorType())
                  ? "grant the service account get, create and update on leases"
                      + " (coordination.k8s.io) in the lease's namespace"
                  : "make the lease file readable by sf2loki's user; move a corrupt one aside");
    };
  }

  private static Optional<CheckResult> probeDirectory(Sf2LokiConfig config) {
    ConfigReader reader = config.loaded().reader();
    Path lease = FileLeaseConfig.bind(reader.section("coordinate.file_lease")).path();
    Path probe = lease.toAbsolutePath().resolveSibling(PROBE);
    try (FileChannel channel =
        FileChannel.open(
            probe,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(
          java.nio.ByteBuffer.wrap("probe".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      channel.force(true);
    } catch (IOException e) {
      return Optional.of(
          new CheckResult.Fail(
              "cannot write " + probe + ": " + e.getClass().getSimpleName() + " " + e.getMessage(),
              "make the lease directory writable by sf2loki's user, on storage both replicas share"));
    } finally {
      try {
        Files.deleteIfExists(probe);
      } catch (IOException e) {
        // best effort: a left-over probe file is harmless
      }
    }
    return Optional.empty();
  }
}
