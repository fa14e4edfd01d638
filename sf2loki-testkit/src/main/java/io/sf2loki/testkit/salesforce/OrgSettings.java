package io.sf2loki.testkit.salesforce;

import java.security.PublicKey;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link FakeSalesforce.Builder} collected, fixed when the fake starts (the builder is not
 * kept, so changing it afterwards changes no running fake).
 */
record OrgSettings(
    String clientId,
    Optional<String> clientSecret,
    Optional<String> username,
    Optional<PublicKey> jwtPublicKey,
    Optional<String> audience,
    String orgId,
    String apiVersion,
    int queryBatchSize,
    Clock clock,
    int port,
    long seed,
    Set<String> scopes) {

  /** The connected app's OAuth scopes as a token response lists them. */
  String scopeList() {
    return String.join(" ", new java.util.TreeSet<>(scopes));
  }
}
