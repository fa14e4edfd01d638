package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.EventTimes;
import io.sf2loki.shape.Payloads;
import io.sf2loki.shape.Shaped;
import io.sf2loki.shape.Shaper;
import io.sf2loki.spi.SourceContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Shapes and emits a run of rows in ascending order, advancing the cursor from each row's
 * <em>original</em> values. The cursor travels on the last entry of the run; when the last row was
 * dropped or sampled out, a checkpoint-only entry carries it instead (invariant 1: deliberately
 * discarded rows are never fetched again, and no token overtakes an undelivered entry).
 */
final class ObjectEmitter {

  private static final Shaper.SampleKey SAMPLE_KEY =
      (original, transformed) -> {
        Object id = original.get("Id");
        return id instanceof String s && !s.isEmpty() ? s : CanonicalJson.write(original);
      };

  private final Shaper shaper;

  ObjectEmitter(Shaper shaper) {
    this.shaper = shaper;
  }

  /**
   * Emits the rows not yet in the cursor's window.
   *
   * @return how many rows were new
   */
  int emit(ObjectSpec spec, List<ObjectNode> rows, ObjectCursor cursor, SourceContext ctx)
      throws InterruptedException {
    int fresh = 0;
    Shaped.Kept pending = null;
    boolean lastKept = false;
    for (ObjectNode row : rows) {
      String id = row.path("Id").asText("");
      if (!id.isEmpty() && cursor.seen(id)) {
        continue;
      }
      fresh++;
      Map<String, Object> original = Payloads.fromJson(row);
      Optional<Instant> fallback = Optional.of(cursor.watermark());
      JsonNode ts = row.get(spec.timestampField());
      Optional<Instant> time = EventTimes.parse(ts == null ? null : ts.asText());
      if (!id.isEmpty()) {
        cursor.advance(id, time, time.isPresent() ? ts.asText() : cursor.lastTs());
      }
      Shaped shaped =
          shaper.shape(spec.shaping(), original, SAMPLE_KEY, spec.timeFields(), fallback);
      if (pending != null) {
        ctx.emit(pending.entry(Optional.empty()));
        pending = null;
      }
      lastKept = shaped instanceof Shaped.Kept;
      if (shaped instanceof Shaped.Kept kept) {
        pending = kept;
      }
    }
    if (fresh == 0) {
      return 0;
    }
    CheckpointToken token = new CheckpointToken(spec.checkpointKey(), cursor.encode());
    if (pending != null && lastKept) {
      ctx.emit(pending.entry(Optional.of(token)));
    } else {
      ctx.emit(LogEntry.checkpointOnly(token));
    }
    return fresh;
  }

  /**
   * Emits every row of one Event Log Object page (they have no {@code Id}: the reader never hands
   * on a row twice within a run), the checkpoint {@code token} on the last entry or on a
   * checkpoint-only entry when the last row was dropped or sampled out.
   */
  void emitPage(
      ObjectSpec spec,
      List<ObjectNode> rows,
      Instant fallback,
      CheckpointToken token,
      SourceContext ctx)
      throws InterruptedException {
    Shaped.Kept pending = null;
    boolean lastKept = false;
    for (ObjectNode row : rows) {
      Shaped shaped =
          shaper.shape(
              spec.shaping(),
              Payloads.fromJson(row),
              SAMPLE_KEY,
              spec.timeFields(),
              Optional.of(fallback));
      if (pending != null) {
        ctx.emit(pending.entry(Optional.empty()));
        pending = null;
      }
      lastKept = shaped instanceof Shaped.Kept;
      if (shaped instanceof Shaped.Kept kept) {
        pending = kept;
      }
    }
    if (pending != null && lastKept) {
      ctx.emit(pending.entry(Optional.of(token)));
    } else {
      ctx.emit(LogEntry.checkpointOnly(token));
    }
  }
}
