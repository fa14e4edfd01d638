package io.sf2loki.state.internal;

import io.sf2loki.spi.StoreUnsafeException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves that an object store honours the conditional writes every guarantee here rests on. Some
 * S3-compatible endpoints accept {@code If-Match}/{@code If-None-Match} and ignore them: every
 * write then succeeds, and two writers silently overwrite each other. On a probe object next to the
 * state object ({@code <key>.sf2loki-probe}, a few bytes left in place), it writes once with a
 * correct precondition, then expects 412 from a create over the existing object ({@code
 * If-None-Match: *}, {@code ifGenerationMatch=0}) and from a replace of a version that never
 * existed. Concurrent probes of two replicas cannot fool it: neither refused write can succeed
 * whatever the other does.
 *
 * <p>Used by the store before its first write, and offered to operator tooling ({@code doctor}).
 */
public final class ConditionalWriteProbe {

  /** The suffix of the probe object's key. */
  public static final String SUFFIX = ".sf2loki-probe";

  private static final int SETUP_ATTEMPTS = 3;
  private static final Logger LOG = LoggerFactory.getLogger(ConditionalWriteProbe.class);

  private ConditionalWriteProbe() {}

  /** What the probe found. */
  public sealed interface Result permits Honoured, Ignored, Inconclusive {
    /** For messages. */
    String describe();
  }

  /** Both conditional writes were refused with 412. */
  public record Honoured(String probe) implements Result {
    @Override
    public String describe() {
      return probe + " refused both stale preconditions with 412: conditional writes work";
    }
  }

  /** A write that must fail its precondition was accepted. */
  public record Ignored(String probe, String accepted) implements Result {
    @Override
    public String describe() {
      return "the endpoint ignores conditional headers: " + accepted + " on " + probe;
    }
  }

  /** The probe could not run (access denied on the probe object, the endpoint unavailable). */
  public record Inconclusive(String probe, String why) implements Result {
    @Override
    public String describe() {
      return "cannot verify conditional writes on " + probe + ": " + why;
    }
  }

  /** Runs the probe on {@code probe}, an object no checkpoint lives in; never throws. */
  public static Result run(ObjectBackend probe) {
    Objects.requireNonNull(probe, "probe");
    String where = probe.location();
    try {
      if (!writeOnce(probe)) {
        return new Inconclusive(where, "other writers kept changing the probe object");
      }
      if (accepted(probe, Optional.empty())) {
        return new Ignored(where, "a create (If-None-Match: *) over the existing object succeeded");
      }
      if (accepted(probe, Optional.of(probe.neverAVersion()))) {
        return new Ignored(where, "a replace of a version that never existed (If-Match) succeeded");
      }
      return new Honoured(where);
    } catch (BackendException e) {
      return new Inconclusive(where, e.getMessage());
    }
  }

  /**
   * What a store does with {@code result} before its first write: refuses an endpoint that ignores
   * conditional headers under a lease coordinator, whose fencing of a stale leader depends on them;
   * warns under {@code noop} ({@code singleInstance}), where they only catch a second instance or
   * an operator's concurrent write. A probe that could not run proves nothing: a warning.
   *
   * @throws StoreUnsafeException when the store must not write
   */
  public static void enforce(Result result, boolean singleInstance, String location) {
    if (result instanceof Ignored && !singleInstance) {
      throw new StoreUnsafeException(
          location
              + ": refusing to write under a lease coordinator: "
              + result.describe()
              + ". Fencing a stale leader needs 412 on a stale precondition; use an endpoint that"
              + " honours conditional writes (AWS S3, a current MinIO) or coordinate.type = noop");
    }
    if (result instanceof Ignored) {
      LOG.warn(
          "{}: {}; nothing stops a second instance or an operator's write from being silently"
              + " overwritten",
          location,
          result.describe());
    } else if (result instanceof Inconclusive) {
      LOG.warn("{}: {}", location, result.describe());
    } else {
      LOG.debug("{}: {}", location, result.describe());
    }
  }

  /** Writes the probe object with a correct precondition; false when racing writers won. */
  private static boolean writeOnce(ObjectBackend probe) {
    for (int attempt = 0; attempt < SETUP_ATTEMPTS; attempt++) {
      Optional<String> version = probe.read().map(ObjectBackend.StoredObject::version);
      try {
        probe.write(body("present"), version);
        return true;
      } catch (BackendException e) {
        if (e.kind() != BackendException.Kind.PRECONDITION_FAILED) {
          throw e;
        }
      }
    }
    return false;
  }

  private static boolean accepted(ObjectBackend probe, Optional<String> stale) {
    try {
      probe.write(body("must be refused"), stale);
      return true;
    } catch (BackendException e) {
      if (e.kind() == BackendException.Kind.PRECONDITION_FAILED) {
        return false;
      }
      throw e;
    }
  }

  private static byte[] body(String what) {
    return ("{\"sf2loki_probe\": \"" + what + "\"}").getBytes(StandardCharsets.UTF_8);
  }
}
