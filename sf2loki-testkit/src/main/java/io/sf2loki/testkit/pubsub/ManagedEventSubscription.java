package io.sf2loki.testkit.pubsub;

import java.util.Objects;

/**
 * A ManagedEventSubscription record of the fake org (Metadata and Tooling API), which
 * ManagedSubscribe streams by developer name or record id.
 *
 * @param developerName its {@code DeveloperName}
 * @param topic the channel it streams ({@code TopicName})
 * @param defaultReplay where it starts while nothing is committed
 * @param errorRecoveryReplay where it restarts when the committed id is no longer valid (past
 *     retention, an org migration)
 * @param state only {@link State#RUN} may be streamed
 */
public record ManagedEventSubscription(
    String developerName,
    String topic,
    Replay defaultReplay,
    Replay errorRecoveryReplay,
    State state) {

  /** {@code EventSubscriptionReplayPreset}. */
  public enum Replay {
    LATEST,
    EARLIEST
  }

  /** The record's {@code State}. */
  public enum State {
    RUN,
    STOP
  }

  public ManagedEventSubscription {
    Objects.requireNonNull(developerName, "developerName");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(defaultReplay, "defaultReplay");
    Objects.requireNonNull(errorRecoveryReplay, "errorRecoveryReplay");
    Objects.requireNonNull(state, "state");
  }

  /** A running subscription; {@code errorRecoveryReplay} LATEST, the real default. */
  public static ManagedEventSubscription running(
      String developerName, String topic, Replay defaultReplay) {
    return new ManagedEventSubscription(
        developerName, topic, defaultReplay, Replay.LATEST, State.RUN);
  }

  /** This record in {@code next} state. */
  public ManagedEventSubscription withState(State next) {
    return new ManagedEventSubscription(
        developerName, topic, defaultReplay, errorRecoveryReplay, next);
  }

  /** This record with {@code next} as its error recovery replay. */
  public ManagedEventSubscription withErrorRecoveryReplay(Replay next) {
    return new ManagedEventSubscription(developerName, topic, defaultReplay, next, state);
  }
}
