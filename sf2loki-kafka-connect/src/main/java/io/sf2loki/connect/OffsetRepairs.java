package io.sf2loki.connect;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.source.checkpoint.CheckpointValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks offsets an operator writes through Connect's REST API ({@code PATCH
 * /connectors/<name>/offsets}, KIP-875) as {@code sf2loki state set} checks a repaired checkpoint:
 * the partition names a configured org and a checkpoint key, the offset is null (a reset: the
 * source starts again from its lookback) or a token its source can parse.
 */
final class OffsetRepairs {

  private OffsetRepairs() {}

  /**
   * @return every problem, each naming the partition it is about; empty when all may be written
   */
  static List<String> problems(Set<String> orgs, Map<Map<String, ?>, Map<String, ?>> offsets) {
    List<String> problems = new ArrayList<>();
    offsets.forEach(
        (partition, offset) -> problem(orgs, partition, offset).ifPresent(problems::add));
    return problems;
  }

  private static Optional<String> problem(
      Set<String> orgs, Map<String, ?> partition, Map<String, ?> offset) {
    if (partition == null
        || partition.size() != 2
        || !(partition.get(EntryRecords.ORG) instanceof String org)
        || !(partition.get(EntryRecords.KEY) instanceof String key)) {
      return Optional.of(
          "partition "
              + partition
              + ": must be {\"org\": \"<org>\", \"key\": \"<checkpoint key>\"}");
    }
    if (!orgs.contains(org)) {
      return Optional.of(
          "partition " + partition + ": org '" + org + "' is not configured (orgs: " + orgs + ")");
    }
    if (key.isBlank() || CheckpointToken.isReserved(key)) {
      return Optional.of("partition " + partition + ": '" + key + "' is not a checkpoint key");
    }
    if (offset == null) {
      return Optional.empty(); // a reset: the source starts again from its lookback or preset
    }
    if (offset.size() != 1 || !(offset.get(EntryRecords.TOKEN) instanceof String token)) {
      return Optional.of(
          "partition "
              + partition
              + ": offset must be {\"token\": \"<checkpoint value>\"} or null");
    }
    return CheckpointValues.problem(key, token, false)
        .map(p -> "partition " + partition + ": refusing token for '" + key + "': " + p);
  }
}
