package io.sf2loki.engine.shard;

import java.util.Objects;
import java.util.Optional;

/**
 * Decides how one checkpoint value written by another writer (the Python sf2loki) is carried into
 * sf2loki's document: as it is, converted to the form sf2loki's source reads, or not at all because
 * its source could not read it. Implemented by the sources, which own their value formats.
 */
@FunctionalInterface
public interface CheckpointCarrier {

  /**
   * @param key the checkpoint key without its {@code org=<name>:} prefix ({@code
   *     eventlogfile:Login}, {@code pubsub:/event/LoginEventStream}, {@code apexlog}, ...)
   * @param value the stored value
   */
  Carried carry(String key, String value);

  /** A carrier that takes every value as it is (no source knows better). */
  CheckpointCarrier AS_IS = (key, value) -> new Carried.As(value, Optional.empty());

  /** The verdict on one value. */
  sealed interface Carried {

    /**
     * Carried as {@code value}.
     *
     * @param value the value to write: the stored one, or its conversion
     * @param conversion what was converted and what it means for the source, when it was
     */
    record As(String value, Optional<String> conversion) implements Carried {
      public As {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(conversion, "conversion");
      }
    }

    /**
     * The key's source cannot read the value: it would restart from its lookback.
     *
     * @param problem what is wrong with it
     */
    record Invalid(String problem) implements Carried {
      public Invalid {
        Objects.requireNonNull(problem, "problem");
      }
    }

    /** No source reads the key's namespace; carried as it is, and reported. */
    record UnknownNamespace() implements Carried {}
  }
}
