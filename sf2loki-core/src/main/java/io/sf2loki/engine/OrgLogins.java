package io.sf2loki.engine;

import io.sf2loki.spi.OrgIdentity;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.StopSignal;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs every org session in before the engine's first campaign: the process authenticates to
 * Salesforce at start, as a leader or a standby, before it can report ready, and a failed login is
 * answered like any failed campaign (classified, counted, backed off; a permanent one ends the
 * engine after its attempts). Each attempt runs on a thread of its own, so the engine's supervising
 * thread keeps beating while a token request hangs and a stop cuts the attempt short.
 */
final class OrgLogins {

  private static final Logger LOG = LoggerFactory.getLogger(OrgLogins.class);

  private final List<OrgSession> sessions;
  private final ThreadFactory threads;
  private final Heartbeat heartbeat;
  private boolean done; // the engine's own thread only

  OrgLogins(List<OrgSession> sessions, ThreadFactory threads, Heartbeat heartbeat) {
    this.sessions = List.copyOf(sessions);
    this.threads = threads;
    this.heartbeat = heartbeat;
  }

  /** True until every session logged in once. */
  boolean pending() {
    return !done && !sessions.isEmpty();
  }

  /**
   * One attempt to log every session in.
   *
   * @param stop cuts the attempt short (the login thread is interrupted)
   * @return the failure, or null when every session logged in or a stop came first
   */
  Throwable attempt(StopSignal stop) throws InterruptedException {
    FutureTask<Void> task =
        new FutureTask<>(
            () -> {
              for (OrgSession session : sessions) {
                OrgIdentity identity = session.login();
                LOG.info(
                    "authenticated to salesforce org {} at {} (login host {})",
                    identity.orgId(),
                    identity.instanceUrl(),
                    session.loginHost());
              }
              return null;
            });
    Thread thread = threads.newThread(task);
    thread.setName("sf2loki-login");
    thread.start();
    while (thread.isAlive()) {
      heartbeat.join(thread, Heartbeat.INTERVAL);
      if (stop.isStopRequested()) {
        thread.interrupt();
        heartbeat.join(thread, Heartbeat.INTERVAL);
        return null;
      }
    }
    try {
      task.get();
    } catch (ExecutionException e) {
      return e.getCause();
    }
    done = true;
    return null;
  }

  /** Closes every session. */
  void close() {
    sessions.forEach(OrgSession::close);
  }
}
