package io.sf2loki.archfixture.layers.spi;

import io.sf2loki.archfixture.layers.config.Settings;

/** A deliberate layer violation, for {@code RulesTest}: an spi type importing config. */
public interface ReadsConfig {
  void configure(Settings settings);
}
