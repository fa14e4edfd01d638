package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;

/**
 * One CommitReplayRequest as the fake received and answered it.
 *
 * @param subscription the managed subscription's developer name
 * @param stream the ManagedSubscribe call's number
 * @param requestId its {@code commit_request_id}
 * @param replayId its {@code replay_id}
 * @param accepted false when it was answered with an {@code Error} (and the position kept)
 */
public record RecordedCommit(
    String subscription, int stream, String requestId, ByteString replayId, boolean accepted) {}
