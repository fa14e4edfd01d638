package io.sf2loki.coordinate.filelease;

import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.IoFailures;

/** The outcome of reading the lease file. */
public sealed interface LeaseRead {

  /** The epoch this read contributes to the epoch rule: the document's, else 0. */
  default long epoch() {
    return this instanceof Present p ? p.document().epoch() : 0;
  }

  /** The file does not exist: claimable. */
  record Absent() implements LeaseRead {}

  /** The file exists but is not a lease document: claimable, contributes epoch 0. */
  record Corrupt(String detail) implements LeaseRead {}

  /**
   * The file could not be read (permission, EIO, stale handle): unknown, never contested.
   *
   * @param failure what the read error is ({@link IoFailures}): EACCES or ENOTDIR are permanent
   */
  record Unknown(String detail, FailureClass failure) implements LeaseRead {

    /** An unreadable lease whose error is transient ({@code lease_unavailable}). */
    public Unknown(String detail) {
      this(detail, FailureClass.transientFailure("lease_unavailable", ""));
    }
  }

  /** A well-formed lease document. */
  record Present(FileLeaseDocument document) implements LeaseRead {}
}
