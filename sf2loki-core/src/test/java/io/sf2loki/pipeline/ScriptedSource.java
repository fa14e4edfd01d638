package io.sf2loki.pipeline;

import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A source that emits {@code count} generated entries, then either ends or waits for the stop.
 * Counts what it has handed to the pipeline.
 */
public final class ScriptedSource implements Source {

  private final String name;
  private final Lane lane;
  private final int count;
  private final IntFunction<LogEntry> entries;
  private final boolean waitForStop;
  private final AtomicInteger emitted = new AtomicInteger();
  private volatile Throwable failAtEnd;
  private volatile int batch = 1;
  private volatile SourceContext context;

  public ScriptedSource(
      String name, Lane lane, int count, IntFunction<LogEntry> entries, boolean waitForStop) {
    this.name = name;
    this.lane = lane;
    this.count = count;
    this.entries = entries;
    this.waitForStop = waitForStop;
  }

  /** Emits exactly {@code list}, then ends. */
  public static ScriptedSource of(String name, Lane lane, List<LogEntry> list) {
    return new ScriptedSource(name, lane, list.size(), list::get, false);
  }

  /** Hands the entries over {@code n} at a time ({@link SourceContext#emit(List)}). */
  public ScriptedSource inBatchesOf(int n) {
    this.batch = n;
    return this;
  }

  /** After emitting, throw {@code e} from run. */
  public ScriptedSource failingAtEnd(RuntimeException e) {
    this.failAtEnd = e;
    return this;
  }

  /** After emitting, throw {@code e} from run: a source dying of an {@link Error}. */
  public ScriptedSource failingAtEnd(Error e) {
    this.failAtEnd = e;
    return this;
  }

  public int emitted() {
    return emitted.get();
  }

  public SourceContext context() {
    return context;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Lane lane() {
    return lane;
  }

  @Override
  public void run(SourceContext ctx) throws InterruptedException {
    this.context = ctx;
    for (int i = 0; i < count && !ctx.stopRequested(); ) {
      if (batch == 1) {
        ctx.emit(entries.apply(i++));
        emitted.incrementAndGet();
      } else {
        List<LogEntry> list = new ArrayList<>();
        for (int end = Math.min(count, i + batch); i < end; i++) {
          list.add(entries.apply(i));
        }
        ctx.emit(list);
        emitted.addAndGet(list.size());
      }
    }
    if (failAtEnd instanceof RuntimeException e) {
      throw e;
    }
    if (failAtEnd instanceof Error e) {
      throw e;
    }
    while (waitForStop && !ctx.awaitStop(Duration.ofSeconds(5))) {
      // idle like a poller between cycles
    }
  }
}
