package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.support.LeaderFenceCheckContract;
import java.nio.file.Path;

/** The leader's fence check on a real lease file. */
class FileLeaseFenceCheckTest extends LeaderFenceCheckContract {

  @Override
  protected Backend open(Path dir) {
    FileLeaseFixture fx = new FileLeaseFixture(dir);
    return new Backend(fx.time, fx.metrics, FileLeaseFixture.RENEW, fx::coordinator, () -> {});
  }
}
