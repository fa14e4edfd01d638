package io.sf2loki.source.pubsub;

/**
 * A topic's stored replay id is expired or corrupt and {@code invalid_replay_id = fail}: the run
 * ends instead of replaying or skipping; an operator sets or deletes {@code pubsub:<topic>}.
 */
public final class InvalidReplayIdException extends Exception {

  private static final long serialVersionUID = 1L;

  InvalidReplayIdException(String topic, String replayIdHex, String description) {
    super(
        "pubsub "
            + topic
            + ": the stored replay id "
            + replayIdHex
            + " is expired or corrupt ("
            + description
            + ") and sources.pubsub.invalid_replay_id = fail; set pubsub:"
            + topic
            + " with `sf2loki state set` or delete it to start from replay_preset");
  }
}
