package io.sf2loki.source.pubsub.client;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.Status;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The three headers of every Pub/Sub call ({@code accesstoken}, {@code instanceurl}, {@code
 * tenantid}), read from the token provider on each call, so a refreshed token is used at once. The
 * token of the latest call is kept so an auth error can invalidate exactly it.
 */
final class TokenCredentials extends CallCredentials {

  static final Metadata.Key<String> ACCESS_TOKEN =
      Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> INSTANCE_URL =
      Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> TENANT_ID =
      Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER);

  private final TokenProvider tokens;
  private final Supplier<String> tenantId;
  private final AtomicReference<AccessToken> lastUsed = new AtomicReference<>();

  TokenCredentials(TokenProvider tokens, Supplier<String> tenantId) {
    this.tokens = tokens;
    this.tenantId = tenantId;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
    executor.execute(
        () -> {
          try {
            AccessToken token = tokens.token();
            lastUsed.set(token);
            Metadata headers = new Metadata();
            headers.put(ACCESS_TOKEN, token.value().reveal());
            headers.put(INSTANCE_URL, token.instanceUrl().toString());
            headers.put(TENANT_ID, tenantId.get());
            applier.apply(headers);
          } catch (AuthException e) {
            applier.fail(
                Status.UNAUTHENTICATED.withDescription("token mint failed: " + e.getMessage()));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            applier.fail(Status.CANCELLED.withDescription("interrupted while minting a token"));
          } catch (RuntimeException e) {
            applier.fail(Status.UNAUTHENTICATED.withDescription("no tenant id: " + e.getMessage()));
          }
        });
  }

  /** Discards the token the latest call used (compare-and-clear in the provider). */
  void invalidateLastUsed() {
    AccessToken used = lastUsed.get();
    if (used != null) {
      tokens.invalidate(used);
    }
  }
}
