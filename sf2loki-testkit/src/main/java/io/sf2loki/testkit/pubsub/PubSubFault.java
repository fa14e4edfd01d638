package io.sf2loki.testkit.pubsub;

/**
 * A scripted fault of the fake Pub/Sub. Stream faults are taken by the next Subscribe or
 * ManagedSubscribe call when its first FetchRequest arrives and strike once that stream has
 * delivered {@code afterEvents} events; schema faults strike the next GetSchema calls; commit
 * faults answer the next managed-subscription commits with an {@code Error} (code {@code COMMIT})
 * and keep the position. Deterministic: no clock, no randomness.
 */
public sealed interface PubSubFault
    permits PubSubFault.Stream, PubSubFault.Schema, PubSubFault.Commit {

  /** How many requests the fault applies to. */
  int times();

  /** What a stream fault does. */
  enum StreamKind {
    /**
     * {@code UNAUTHENTICATED}, trailer {@code …service.auth.error}; the stream's token is revoked.
     */
    AUTH_ERROR,
    /** {@code UNAVAILABLE} with no trailer, as a RST_STREAM or a transport drop looks. */
    RST_STREAM,
    /** {@code UNAVAILABLE}, trailer {@code …service.unavailable}. */
    SERVICE_UNAVAILABLE,
    /** {@code UNAVAILABLE}, trailer {@code …concurrent.client.limit.exceeded}. */
    CLIENT_LIMIT,
    /** A clean end of the stream ({@code onCompleted}). */
    CLEAN_CLOSE,
    /** The stream stays open and sends nothing more, not even keepalives. */
    STALL
  }

  /** What a schema fault answers. */
  enum SchemaKind {
    UNAVAILABLE,
    UNAUTHENTICATED,
    NOT_FOUND
  }

  /**
   * Strikes a Subscribe stream.
   *
   * @param afterEvents events the stream delivers first (0: right after its first FetchRequest)
   * @param times how many streams it strikes, one after the other
   */
  record Stream(StreamKind kind, int afterEvents, int times) implements PubSubFault {
    public Stream {
      if (afterEvents < 0 || times < 1) {
        throw new IllegalArgumentException("afterEvents >= 0 and times >= 1");
      }
    }
  }

  /** Fails the next {@code times} GetSchema calls. */
  record Schema(SchemaKind kind, int times) implements PubSubFault {}

  /**
   * Refuses the next {@code times} CommitReplayRequests in-band, keeping the committed position.
   */
  record Commit(int times) implements PubSubFault {}

  /** Strikes the next stream after {@code afterEvents} events. */
  static PubSubFault stream(StreamKind kind, int afterEvents) {
    return new Stream(kind, afterEvents, 1);
  }

  /** Fails the next GetSchema call. */
  static PubSubFault schema(SchemaKind kind) {
    return new Schema(kind, 1);
  }
}
