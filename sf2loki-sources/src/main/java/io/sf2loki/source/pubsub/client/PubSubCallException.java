package io.sf2loki.source.pubsub.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** A unary Pub/Sub call failed; {@link #failure()} says what it means. */
public final class PubSubCallException extends Exception {

  private static final long serialVersionUID = 1L;
  private final transient StreamFailure failure;

  PubSubCallException(String call, StatusRuntimeException cause) {
    super(call + " failed: " + describe(cause), cause);
    this.failure = StreamFailure.of(cause.getStatus(), cause.getTrailers());
  }

  /** The classified failure. */
  public StreamFailure failure() {
    return failure;
  }

  private static String describe(StatusRuntimeException e) {
    Status s = e.getStatus();
    return s.getCode() + (s.getDescription() == null ? "" : " " + s.getDescription());
  }
}
