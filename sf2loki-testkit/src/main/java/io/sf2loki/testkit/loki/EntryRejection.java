package io.sf2loki.testkit.loki;

/**
 * A standing rule that makes chosen entries unacceptable, to exercise bisection: every push
 * containing an entry whose line contains {@code marker} gets {@code status}. With 400 the other
 * entries of the request are stored (Loki stores the valid part of a request it rejects); with 413
 * nothing is.
 *
 * @param marker substring that identifies a poison line
 * @param status 400 or 413
 */
public record EntryRejection(String marker, int status) {

  public EntryRejection {
    if (marker.isEmpty()) {
      throw new IllegalArgumentException("marker must not be empty");
    }
    if (status != 400 && status != 413) {
      throw new IllegalArgumentException("entry rejections answer 400 or 413, not " + status);
    }
  }
}
