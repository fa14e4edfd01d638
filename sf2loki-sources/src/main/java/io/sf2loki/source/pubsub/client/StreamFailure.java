package io.sf2loki.source.pubsub.client;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.Locale;
import java.util.Optional;

/**
 * What a failed Pub/Sub call means for the client, decided by its status and {@code error-code}
 * trailer (branch on the trailer, not the status: one status maps to several actions).
 */
public sealed interface StreamFailure {

  /** The failure's short name: the trailer code without its prefix, or the status code. */
  String code();

  /** The service's description (ends with its rpcId), for the log. */
  String description();

  /** The token was refused: refresh it and resubscribe from the same position. */
  record Auth(String code, String description) implements StreamFailure {}

  /** The replay id is unknown, expired or garbled: the configured replay policy decides. */
  record CorruptReplay(String code, String description) implements StreamFailure {}

  /** Transient (RST_STREAM, unavailable, protection, a clean close): resubscribe with backoff. */
  record Transient(String code, String description) implements StreamFailure {}

  /**
   * The managed subscription is being streamed by another client (a managed subscription belongs to
   * one client at a time): resubscribe with backoff, since the other stream may be a dying one (a
   * previous leader of an HA pair).
   */
  record InUse(String code, String description) implements StreamFailure {}

  /**
   * Needs an operator (a missing topic or permission, a client bug): retried slowly, since a fixed
   * org takes effect without a restart.
   */
  record Permanent(String code, String description) implements StreamFailure {}

  /** The trailer key carrying Salesforce's error code. */
  Metadata.Key<String> ERROR_CODE = Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER);

  /** The prefix every Salesforce error code starts with. */
  String PREFIX = "sfdc.platform.eventbus.grpc.";

  /** Classifies a call's end. */
  static StreamFailure of(Status status, Metadata trailers) {
    Optional<String> code =
        Optional.ofNullable(trailers == null ? null : trailers.get(ERROR_CODE))
            .map(c -> c.toLowerCase(Locale.ROOT));
    String description =
        status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
    if (code.isEmpty()) {
      return switch (status.getCode()) {
        case UNAUTHENTICATED -> new Auth(status.getCode().name(), description);
        // a bare INVALID_ARGUMENT on resume is read as a corrupt id (salesforce-api §11.5)
        case INVALID_ARGUMENT -> new CorruptReplay(status.getCode().name(), description);
        case PERMISSION_DENIED, NOT_FOUND, UNIMPLEMENTED ->
            new Permanent(status.getCode().name(), description);
        default -> new Transient(status.getCode().name(), description);
      };
    }
    String c = code.get();
    String name = c.startsWith(PREFIX) ? c.substring(PREFIX.length()) : c;
    if (c.contains("service.auth.") || status.getCode() == Status.Code.UNAUTHENTICATED) {
      return new Auth(name, description);
    }
    if (c.contains("replayid.corrupted")) {
      return new CorruptReplay(name, description);
    }
    if (c.contains("managed.subscription.already.active")) {
      return new InUse(name, description);
    }
    if (c.contains("service.unavailable")
        || c.contains("api.unavailable")
        || c.contains("internal.error")
        || c.contains("protection.")
        || c.contains("concurrent.client.limit.exceeded")) {
      return new Transient(name, description);
    }
    return new Permanent(name, description);
  }
}
