package io.sf2loki.bench;

import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;

/** An in-memory source: emits entries {@code first..first+count-1} of {@link BenchEntries}. */
final class BenchSource implements Source {

  private final String name;
  private final Lane lane;
  private final long first;
  private final long count;
  private final BenchEntries entries;

  BenchSource(String name, Lane lane, long first, long count, boolean freshLines) {
    this.entries = new BenchEntries(freshLines);
    this.name = name;
    this.lane = lane;
    this.first = first;
    this.count = count;
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
    for (long i = first; i < first + count && !ctx.stopRequested(); i++) {
      ctx.emit(entries.entry(i));
    }
  }
}
