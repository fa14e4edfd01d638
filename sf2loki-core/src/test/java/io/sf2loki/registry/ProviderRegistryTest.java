package io.sf2loki.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.spi.ComponentProvider;
import io.sf2loki.spi.ConfigSection;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProviderRegistryTest {

  record Named(String type) implements ComponentProvider<String> {
    @Override
    public String configure(ConfigSection section) {
      return type;
    }
  }

  record Other(String type) implements ComponentProvider<String> {
    @Override
    public String configure(ConfigSection section) {
      return type;
    }
  }

  @Test
  void selectsByTypeName() {
    ProviderRegistry<Named> registry =
        new ProviderRegistry<>("store", List.of(new Named("file"), new Named("s3")));
    ConfigReader reader = ConfigReader.of(ConfigFactory.parseString("state.store = s3"));
    assertThat(registry.select(reader.section("state"), "store")).contains(new Named("s3"));
    assertThat(reader.problems()).isEmpty();
  }

  @Test
  void twoProvidersOfOneTypeAreReportedWithBothClassNames() {
    ProviderRegistry<ComponentProvider<String>> registry =
        new ProviderRegistry<>("store", List.of(new Named("file"), new Other("file")));
    ConfigReader reader = ConfigReader.of(ConfigFactory.parseString("state.store = file"));
    assertThat(registry.select(reader.section("state"), "store")).isEmpty();
    assertThat(reader.problems().get(0).message())
        .contains("provided twice")
        .contains(Named.class.getName())
        .contains(Other.class.getName());
  }

  @Test
  void noProviderOnTheClassPathSaysSo() {
    ProviderRegistry<Named> registry = new ProviderRegistry<>("store", List.of());
    ConfigReader reader = ConfigReader.of(ConfigFactory.parseString("state.store = file"));
    registry.select(reader.section("state"), "store");
    assertThat(reader.problems().get(0).message()).contains("known: none on the class path");
  }
}
