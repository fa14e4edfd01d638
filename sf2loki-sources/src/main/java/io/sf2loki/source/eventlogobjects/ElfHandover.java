package io.sf2loki.source.eventlogobjects;

import io.sf2loki.shape.Categories;
import io.sf2loki.source.eventlogfile.ElfCheckpoint;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The switch-over of one category from EventLogFile to its Event Log Object: an Event Log Object
 * without a checkpoint of its own starts where its EventLogFile type's files ended ({@code
 * covered_until} of {@code eventlogfile:<Type>}: every event before it was shipped from a file,
 * none after it), so the hours in between are neither lost nor shipped twice. The overlap guard
 * keeps the two from running at once, so that position no longer moves.
 */
final class ElfHandover {

  private ElfHandover() {}

  /** A handover, or why the EventLogFile checkpoint found cannot give one. */
  sealed interface Result permits Handover, Unusable {}

  /**
   * The position handed over.
   *
   * @param elfKey the EventLogFile checkpoint handed over, e.g. {@code eventlogfile:Login}
   * @param from where the Event Log Object starts
   */
  record Handover(String elfKey, Instant from) implements Result {}

  /** What {@code eventLogObject} takes over, given the committed {@code checkpoints}. */
  static Optional<Result> of(
      String eventLogObject, Function<String, Optional<String>> checkpoints) {
    Optional<String> type = Categories.eventLogFileType(eventLogObject);
    if (type.isEmpty()) {
      return Optional.empty();
    }
    String key = "eventlogfile:" + type.get();
    Optional<String> stored = checkpoints.apply(key);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    ElfCheckpoint elf;
    try {
      elf = ElfCheckpoint.parse(stored.get());
    } catch (IllegalArgumentException e) {
      return Optional.of(new Unusable(key, "it is corrupt (" + e.getMessage() + ")"));
    }
    return Optional.of(
        elf.coveredUntil()
            .<Result>map(c -> new Handover(key, c))
            .orElseGet(
                () ->
                    new Unusable(
                        key,
                        "it records no covered hours (written by an older sf2loki, the Python"
                            + " one or by hand)")));
  }

  /**
   * An EventLogFile checkpoint of the category that tells no position.
   *
   * @param elfKey its key
   * @param why why, for a WARN
   */
  record Unusable(String elfKey, String why) implements Result {}
}
