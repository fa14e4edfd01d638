package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.shape.Categories;
import io.sf2loki.shape.EventTimes;
import java.io.IOException;
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

  private static final ObjectMapper JSON = new ObjectMapper();

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
    JsonNode elf;
    try {
      elf = JSON.readTree(stored.get());
    } catch (IOException e) {
      elf = null;
    }
    // the key ElfCheckpoint writes; read here because source.eventlogfile depends on this package
    Optional<Instant> covered =
        elf != null && elf.path("covered_until").isTextual()
            ? EventTimes.parse(elf.path("covered_until").asText())
            : Optional.empty();
    return Optional.of(
        covered
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
