package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;

/**
 * One ManagedFetchRequest as the fake received it.
 *
 * @param stream the ManagedSubscribe call's number (numbered with the Subscribe calls)
 * @param first true for the request that opened the stream
 * @param subscriptionId its {@code subscription_id}
 * @param developerName its {@code developer_name}
 * @param numRequested its {@code num_requested}
 * @param commitReplayId the {@code replay_id} of its commit request; empty without one
 * @param accessToken the {@code accesstoken} header of the call
 */
public record RecordedManagedFetch(
    int stream,
    boolean first,
    String subscriptionId,
    String developerName,
    int numRequested,
    ByteString commitReplayId,
    String accessToken) {}
