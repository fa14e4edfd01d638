package io.sf2loki.archfixture.layers.spi;

import io.sf2loki.archfixture.layers.model.Value;

/** The spi layer of the layer fixture, using only the model, as it should. */
public interface Contract {
  Value read(String key);
}
