package io.sf2loki.archfixture.layers.pipeline;

import io.sf2loki.archfixture.layers.config.Settings;

/** The pipeline layer of the layer fixture, using config, as it may. */
public final class Flow {
  public Settings settings = new Settings();
}
