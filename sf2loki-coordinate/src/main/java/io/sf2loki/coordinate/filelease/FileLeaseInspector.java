package io.sf2loki.coordinate.filelease;

import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.LeaseInspector;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/** Reads the lease file for {@code lease show} and {@code doctor} without joining the election. */
public final class FileLeaseInspector implements LeaseInspector {

  static final String TYPE = "file_lease";

  private final Path path;
  private final Clock clock;
  private final FileLeaseReader reader = new FileLeaseReader();

  public FileLeaseInspector(Path path, Clock clock) {
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public LeaseInfo inspect() {
    String location = path.toString();
    LeaseRead read = reader.read(path);
    if (read instanceof LeaseRead.Absent) {
      return LeaseInfo.absent(TYPE, location);
    }
    if (read instanceof LeaseRead.Unknown u) {
      return LeaseInfo.unreadable(TYPE, location, u.detail());
    }
    if (read instanceof LeaseRead.Corrupt c) {
      return LeaseInfo.unreadable(
          TYPE, location, "not a lease document (" + c.detail() + "); it is claimable");
    }
    FileLeaseDocument doc = ((LeaseRead.Present) read).document();
    return new LeaseInfo(
        TYPE,
        location,
        doc.isExpiredAt(clock.instant()) ? LeaseInfo.State.EXPIRED : LeaseInfo.State.HELD,
        Optional.of(doc.holder()),
        Optional.empty(),
        Optional.empty(),
        Optional.of(doc.expiresAt()),
        OptionalLong.of(doc.epoch()),
        Optional.empty());
  }
}
