package io.sf2loki.archfixture.layers.engine;

import io.sf2loki.archfixture.layers.pipeline.Flow;

/** The engine layer of the layer fixture, using the pipeline, as it may. */
public final class Runner {
  public Flow flow = new Flow();
}
