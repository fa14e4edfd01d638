package io.sf2loki.spi;

import java.util.Optional;

/**
 * The connection to one Salesforce org that every source of the org shares: one token provider, one
 * login. The composition root opens one per org ({@link OrgSessions}), logs it in before the
 * process reports ready, on the leader and the standby alike, and hands it to every source through
 * {@link SourceEnvironment#session()}; a source that finds none there opens its own.
 *
 * <p>Thread-safe: the sources of a term call it from their threads concurrently. The session
 * outlives the terms and is closed with the engine.
 */
public interface OrgSession extends AutoCloseable {

  /** Where it logs in, for log lines: the login host, without credentials. */
  String loginHost();

  /**
   * Logs in (mints a token unless a valid one is cached) and resolves the org's identity: {@code
   * salesforce.org_id} when configured, else the identity service's answer. Blocking network I/O;
   * called by the composition root on a thread of its own, which a stop interrupts.
   *
   * @throws OrgLoginException when the token endpoint or the identity service failed; its {@link
   *     OrgLoginException#failureClass()} says whether trying again can help
   * @throws InterruptedException when interrupted while waiting for an answer or a retry
   */
  OrgIdentity login() throws OrgLoginException, InterruptedException;

  /** The identity of the last successful {@link #login}; empty before one succeeded. */
  Optional<OrgIdentity> identity();

  /** Releases the session's connections; idempotent. */
  @Override
  void close();
}
