package io.sf2loki.engine;

import io.sf2loki.spi.ClassifiedFailure;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.IoFailures;
import io.sf2loki.spi.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.HashSet;
import java.util.Set;

/**
 * Classifies every failure that reaches the engine (store, coordinator, sink, source, token
 * endpoint): the first {@link ClassifiedFailure} in its cause chain says what it is; else an I/O
 * failure in the chain is classified by {@link IoFailures} ({@code io_...}); anything else is
 * {@link FailureClass#UNEXPECTED}, permanent: a bug or a case nobody foresaw, which trying again a
 * few times cannot hide for long. A store failure that names no resource names the engine's store.
 */
public final class FailureClassifier {

  private final String storeLocation;

  /**
   * @param storeLocation the engine's checkpoint store, named by store failures that name nothing
   */
  public FailureClassifier(String storeLocation) {
    this.storeLocation = storeLocation;
  }

  /** What {@code failure} is: transient or permanent, its reason and resource. */
  public FailureClass classify(Throwable failure) {
    Set<Throwable> seen = new HashSet<>();
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof ClassifiedFailure classified) {
        FailureClass c = classified.failureClass();
        return t instanceof StoreException ? c.orResource(storeLocation) : c;
      }
    }
    seen.clear();
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof IOException
          || t instanceof UncheckedIOException
          || t instanceof ReadOnlyFileSystemException) {
        return IoFailures.classify(t, "io", "", "the path it names");
      }
    }
    return FailureClass.permanent(
        FailureClass.UNEXPECTED,
        "",
        "an unexpected error, logged with its stack trace at the first attempt: report it if it"
            + " persists");
  }
}
