package io.sf2loki.shape;

import java.util.Set;

/**
 * Capability of a {@link io.sf2loki.spi.SourceProvider.Factory} whose entries may carry promoted
 * stream labels ({@code event_types[].labels}, {@code objects[].labels}); the composition root
 * finds it with {@code instanceof} and tells the sink, whose label guard otherwise moves every name
 * outside {@link io.sf2loki.model.StreamLabels#ALLOWLIST} to structured metadata.
 */
public interface PromotedLabels {

  /** The payload fields this source's configuration promotes to stream labels (may be empty). */
  Set<String> promotedLabels();

  /**
   * The most labels one stream of this source carries from promotion: the largest number any one
   * event type promotes. By default all of {@link #promotedLabels()}, an upper bound.
   */
  default int mostPromotedPerStream() {
    return promotedLabels().size();
  }
}
