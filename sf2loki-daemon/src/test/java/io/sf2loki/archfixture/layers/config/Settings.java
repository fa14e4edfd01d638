package io.sf2loki.archfixture.layers.config;

import io.sf2loki.archfixture.layers.model.Value;
import io.sf2loki.archfixture.layers.spi.Contract;

/** The config layer of the layer fixture, implementing an spi contract, as it may. */
public final class Settings implements Contract {
  @Override
  public Value read(String key) {
    return new Value(key);
  }
}
