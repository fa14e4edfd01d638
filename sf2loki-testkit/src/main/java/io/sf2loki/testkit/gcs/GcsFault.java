package io.sf2loki.testkit.gcs;

import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.util.Objects;

/**
 * A scripted failure of the next request of one {@link Operation}, at a named point: {@link Status}
 * answers an error before anything happens, {@link DropRequest} loses the request before it is
 * applied, {@link DropResponse} applies it and loses the answer. Each strikes one request.
 */
public sealed interface GcsFault
    permits GcsFault.Status, GcsFault.DropRequest, GcsFault.DropResponse {

  /** The operation whose next request this fault strikes. */
  Operation operation();

  /**
   * Answers {@code status} with the JSON API's error body; nothing is applied.
   *
   * @param operation the operation it strikes
   * @param status an error status, 400 to 599
   */
  record Status(Operation operation, int status) implements GcsFault {
    public Status {
      Objects.requireNonNull(operation, "operation");
      if (status < 400 || status > 599) {
        throw new IllegalArgumentException("a GCS fault answers 400..599, not " + status);
      }
    }
  }

  /**
   * Closes the connection without applying the request or answering: a request lost on the way.
   *
   * @param operation the operation it strikes
   */
  record DropRequest(Operation operation) implements GcsFault {
    public DropRequest {
      Objects.requireNonNull(operation, "operation");
    }
  }

  /**
   * Applies the request in full (whatever it answers: a write, a 404, a 412), then closes the
   * connection without the answer: the server acted, the client never heard.
   *
   * @param operation the operation it strikes
   */
  record DropResponse(Operation operation) implements GcsFault {
    public DropResponse {
      Objects.requireNonNull(operation, "operation");
    }
  }

  /** Answer {@code status} to the next request of {@code operation}. */
  static Status status(Operation operation, int status) {
    return new Status(operation, status);
  }

  /** Lose the next request of {@code operation} before it is applied. */
  static DropRequest dropRequest(Operation operation) {
    return new DropRequest(operation);
  }

  /** Apply the next request of {@code operation} and lose its answer. */
  static DropResponse dropResponse(Operation operation) {
    return new DropResponse(operation);
  }
}
