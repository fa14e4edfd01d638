package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;

/**
 * One FetchRequest as the fake received it.
 *
 * @param stream the Subscribe call's number (1 for the first call the fake served)
 * @param first true for the request that opened the stream
 * @param topic its {@code topic_name}
 * @param preset its {@code replay_preset} name
 * @param replayId its {@code replay_id}
 * @param numRequested its {@code num_requested}
 * @param accessToken the {@code accesstoken} header of the call
 */
public record RecordedFetch(
    int stream,
    boolean first,
    String topic,
    String preset,
    ByteString replayId,
    int numRequested,
    String accessToken) {}
