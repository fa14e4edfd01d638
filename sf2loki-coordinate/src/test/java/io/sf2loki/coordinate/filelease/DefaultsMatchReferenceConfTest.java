package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What code uses when a library user builds a {@link FileLeaseConfig} from the timings alone is
 * what {@code reference.conf} documents for {@code coordinate.file_lease}: the derived {@code
 * io_timeout} cannot drift from the documented default.
 */
class DefaultsMatchReferenceConfTest {

  @Test
  void fileLeaseDefaultsAreTheDocumentedOnes() {
    ConfigReader r =
        new ConfigLoader(getClass().getClassLoader(), Map.of())
            .loadString("")
            .reader()
            .section("coordinate.file_lease");

    assertThat(FileLeaseConfig.bind(r))
        .isEqualTo(
            new FileLeaseConfig(
                Path.of("/var/lib/sf2loki/leader.lease"),
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                Optional.empty()));
    assertThat(r.problems()).isEmpty();
  }
}
