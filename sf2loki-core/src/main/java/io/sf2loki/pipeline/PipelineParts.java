package io.sf2loki.pipeline;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import java.util.List;
import java.util.Optional;

/**
 * What a built {@link Pipeline} consists of: its settings, its collaborators and its environment.
 *
 * @param backoff the lanes' retry policy when given one (tests); else each lane's jittered
 *     exponential backoff between its {@code retryMinBackoff} and {@code retryMaxBackoff}
 */
record PipelineParts(
    PipelineSettings settings,
    List<Source> sources,
    Sink sink,
    CheckpointStore store,
    Fence fence,
    PipelineMetrics metrics,
    PipelineEnvironment environment,
    Optional<Backoff> backoff) {

  /** The retry policy of {@code lane}. */
  Backoff backoff(Source.Lane lane) {
    return backoff.orElseGet(
        () -> {
          var bounds = settings.lane(lane);
          return Backoff.exponential(
              bounds.retryMinBackoff(), bounds.retryMaxBackoff(), environment.random());
        });
  }
}
