package io.sf2loki.state.internal;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.Term;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The single-instance guard of an object store under {@code noop}, where no lock can exist: every
 * write of the daemon's term stamps this process's random token in {@value
 * CheckpointToken#RESERVED_WRITER_KEY}. When a conditional write then finds the document changed,
 * the token tells who changed it: still the token we based our write on, an operator's {@code
 * sf2loki-cli state} repair (its unfenced writes keep the token) — merged as before; another token,
 * a second daemon writing the same object — an error naming the cause, never a silent merge that
 * would let two instances ingest everything twice.
 */
final class SingleWriter {

  static final String KEY = CheckpointToken.RESERVED_WRITER_KEY;

  private final String token = UUID.randomUUID().toString();

  /** Whether {@code mutation} is the daemon's own (a leadership term's), which is stamped. */
  boolean stamps(Mutation mutation) {
    return mutation.fence() instanceof Term;
  }

  /** {@code doc} with our token. */
  Map<String, String> stamp(Map<String, String> doc) {
    Map<String, String> stamped = new LinkedHashMap<>(doc);
    stamped.put(KEY, token);
    return stamped;
  }

  /**
   * @param base the document our failed write was based on
   * @param fresh the document that was there instead
   * @throws StoreLockedException when another daemon's token replaced the one we based on:
   *     permanent ({@code store_locked}), since under {@code noop} the other daemon keeps writing
   *     for its lifetime
   */
  void refuseAnotherInstance(Map<String, String> base, Map<String, String> fresh, String location) {
    Optional<String> theirs = Optional.ofNullable(fresh.get(KEY));
    if (theirs.isEmpty()
        || theirs.get().equals(token)
        || Objects.equals(theirs.get(), base.get(KEY))) {
      return;
    }
    throw new StoreLockedException(
        "another sf2loki instance is writing "
            + location
            + ": a conditional write found the document rewritten by writer "
            + theirs.get()
            + " (this process is "
            + token
            + "). Under coordinate.type = noop exactly one instance may use a state object: run"
            + " one instance per state object, or use a lease coordinator (file_lease, k8s_lease)"
            + " for an active-passive pair",
        null,
        FailureClass.permanent(
            "store_locked",
            location,
            "stop the other sf2loki instance, or give each instance its own state object"));
  }
}
