package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigReader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What code uses when nothing is configured ({@link FileStoreConfig#of}, for library users and
 * tools) is what {@code reference.conf} documents for {@code state.file}: the lock timeout and the
 * I/O deadline cannot drift apart.
 */
class DefaultsMatchReferenceConfTest {

  @Test
  void fileStoreDefaultsAreTheDocumentedOnes() {
    ConfigReader r =
        new ConfigLoader(getClass().getClassLoader(), Map.of())
            .loadString("")
            .reader()
            .section("state.file");

    assertThat(FileStoreConfig.bind(r)).isEqualTo(FileStoreConfig.of(FileStoreConfig.DEFAULT_PATH));
    assertThat(r.problems()).isEmpty();
  }
}
