package io.sf2loki.spi;

/**
 * A capability of a {@link SourceProvider.Factory} whose sources talk to a Salesforce org: it opens
 * the org's {@link OrgSession}. The composition root asks the first enabled factory offering it for
 * one session per org and hands that session to the sources of every family; a factory never
 * assumes that the session it is handed is one it opened.
 */
public interface OrgSessions {

  /**
   * Opens the org's session; performs no network I/O (the composition root calls {@link
   * OrgSession#login} later).
   *
   * @param environment time, jitter and metrics for the session; its {@link
   *     SourceEnvironment#session()} is empty
   */
  OrgSession openSession(SourceEnvironment environment);
}
