package io.sf2loki.testkit.pubsub;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.UUID;

/** The statuses and {@code error-code} trailers the real service answers with. */
final class PubSubErrors {

  static final String PREFIX = "sfdc.platform.eventbus.grpc.";
  static final Metadata.Key<String> ERROR_CODE =
      Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> RPC_ID =
      Metadata.Key.of("rpc-id", Metadata.ASCII_STRING_MARSHALLER);

  private PubSubErrors() {}

  static StatusRuntimeException auth() {
    return error(
        Status.UNAUTHENTICATED,
        "service.auth.error",
        "An authentication exception occurred. Provide valid authentication via metadata"
            + " headers.");
  }

  static StatusRuntimeException replayCorrupted() {
    return error(
        Status.INVALID_ARGUMENT,
        "subscription.fetch.replayid.corrupted",
        "The Replay ID validation failed.");
  }

  static StatusRuntimeException replayValidation() {
    return error(
        Status.INVALID_ARGUMENT,
        "subscription.fetch.replayid.validation.failed",
        "A replay ID is required with the CUSTOM preset.");
  }

  static StatusRuntimeException topicMismatch() {
    return error(
        Status.INVALID_ARGUMENT,
        "subscription.fetch.topic.mismatch",
        "The topic name must match the first request of the stream.");
  }

  static StatusRuntimeException requestedInvalid() {
    return error(
        Status.INVALID_ARGUMENT,
        "subscription.fetch.requested.events.invalid",
        "num_requested must be greater than 0.");
  }

  static StatusRuntimeException topicNotFound(String topic) {
    return error(Status.NOT_FOUND, "topic.not.found", "Topic " + topic + " was not found.");
  }

  static StatusRuntimeException cannotSubscribe(String topic) {
    return error(
        Status.PERMISSION_DENIED,
        "subscription.topic.cannot.subscribe",
        "The user is not permitted to subscribe to " + topic + ".");
  }

  static StatusRuntimeException schemaNotFound(String id) {
    return error(Status.NOT_FOUND, "schema.not.found", "Schema " + id + " was not found.");
  }

  static StatusRuntimeException serviceUnavailable() {
    return error(Status.UNAVAILABLE, "service.unavailable", "The service is unavailable.");
  }

  static StatusRuntimeException clientLimit() {
    return error(
        Status.UNAVAILABLE,
        "concurrent.client.limit.exceeded",
        "The number of concurrent clients was exceeded.");
  }

  // The managed-subscription codes are reported by clients but not documented (pubsub-api.md §7),
  // nor are their statuses: a client must branch on the trailer.

  static StatusRuntimeException managedAlreadyActive(String name) {
    return error(
        Status.FAILED_PRECONDITION,
        "managed.subscription.already.active",
        "The managed subscription " + name + " already has an active subscriber.");
  }

  static StatusRuntimeException managedNotRunning(
      String name, ManagedEventSubscription.State state) {
    return error(
        Status.FAILED_PRECONDITION,
        "managed.subscription.config.stopped",
        "The managed subscription " + name + " is in state " + state + ", not RUN.");
  }

  static StatusRuntimeException managedNotFound(String ref) {
    return error(
        Status.NOT_FOUND,
        "managed.subscription.not.found",
        "The managed subscription " + ref + " was not found.");
  }

  static StatusRuntimeException managedIdentifierMissing() {
    return error(
        Status.INVALID_ARGUMENT,
        "managed.subscription.identifier.missing",
        "The first request must name a subscription_id or a developer_name.");
  }

  static StatusRuntimeException managedMismatch() {
    return error(
        Status.INVALID_ARGUMENT,
        "managed.subscription.mismatch",
        "The managed subscription must match the first request of the stream.");
  }

  static StatusRuntimeException rstStream() {
    return Status.UNAVAILABLE
        .withDescription("RST_STREAM closed stream. HTTP/2 error code: NO_ERROR")
        .asRuntimeException();
  }

  /** {@code status} with the full trailer string and a description ending in the rpcId. */
  static StatusRuntimeException error(Status status, String code, String text) {
    String rpcId = UUID.randomUUID().toString();
    Metadata trailers = new Metadata();
    trailers.put(ERROR_CODE, PREFIX + code);
    trailers.put(RPC_ID, rpcId);
    return status.withDescription(text + " rpcId: " + rpcId).asRuntimeException(trailers);
  }
}
