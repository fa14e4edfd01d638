package io.sf2loki.spi;

import java.net.URI;
import java.util.Objects;

/**
 * Who an {@link OrgSession} logged in as: the org's id and the instance every call of its sources
 * goes to.
 *
 * @param orgId the org id ({@code 00D...}): {@code salesforce.org_id} when configured, else the one
 *     the identity service named after the login; it becomes the {@code sf_org_id} label
 * @param instanceUrl the org's instance base URL (no credentials)
 */
public record OrgIdentity(String orgId, URI instanceUrl) {

  public OrgIdentity {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(instanceUrl, "instanceUrl");
  }
}
