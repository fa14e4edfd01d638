package io.sf2loki.coordinate.filelease;

import java.io.IOException;

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
}
