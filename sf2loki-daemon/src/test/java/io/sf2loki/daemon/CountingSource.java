package io.sf2loki.daemon;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Emits numbered entries from its checkpoint on, one every {@code pause}, up to {@code limit} (then
 * returns: a finite source), each carrying checkpoint {@code counter = n}.
 */
final class CountingSource implements Source {

  static final String KEY = "test:counter";

  private final long limit;
  private final Duration pause;

  CountingSource(long limit, Duration pause) {
    this.limit = limit;
    this.pause = pause;
  }

  @Override
  public String name() {
    return "counting";
  }

  @Override
  public void run(SourceContext ctx) throws Exception {
    long next = ctx.checkpoint(KEY).map(Long::parseLong).orElse(0L) + 1;
    while (next <= limit && !ctx.stopRequested()) {
      ctx.emit(
          LogEntry.of(
              java.time.Instant.now().toEpochMilli() * 1_000_000L + next % 1_000_000L,
              Map.of("source", "test", "event_type", "Counter"),
              "{\"n\":" + next + "}",
              Map.of(),
              Optional.of(new CheckpointToken(KEY, Long.toString(next)))));
      next++;
      if (!pause.isZero() && ctx.awaitStop(pause)) {
        return;
      }
    }
  }
}
