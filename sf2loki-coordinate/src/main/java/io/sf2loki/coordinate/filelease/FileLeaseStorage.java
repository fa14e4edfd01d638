package io.sf2loki.coordinate.filelease;

import io.sf2loki.files.StrayFiles;
import java.io.IOException;
import java.time.Instant;

/**
 * Where the lease document lives. The real one is {@link FileLeaseFile}; tests wrap it to inject
 * pauses and faults at named points.
 */
public interface FileLeaseStorage {

  /** Reads the lease; never throws (errors are {@link LeaseRead.Unknown}). */
  LeaseRead read();

  /**
   * Replaces the lease with {@code document} atomically (the last rename wins; there is no CAS).
   *
   * @throws IOException the write failed; the old lease may or may not remain
   */
  void write(FileLeaseDocument document) throws IOException;

  /** The lease's location, for messages. */
  String location();

  /**
   * Removes temp files a crashed writer left next to the lease, modified before {@code olderThan}
   * (counted and logged by {@code strays}); storages without files have none.
   */
  default void removeStrays(Instant olderThan, StrayFiles strays) {}
}
