package io.sf2loki.engine;

import io.sf2loki.spi.Source;
import java.util.List;

/**
 * Creates fresh sources for each leadership term, so no state of a demoted run leaks into the next
 * one (positions are re-read from the store).
 */
@FunctionalInterface
public interface TermSources {

  /** Sources for one term; called on the coordinator's thread at every acquire. */
  List<Source> create();
}
