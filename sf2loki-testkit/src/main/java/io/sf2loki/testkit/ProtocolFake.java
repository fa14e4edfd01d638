package io.sf2loki.testkit;

import java.net.URI;

/**
 * The shape every protocol fake of the testkit has, after OkHttp's MockWebServer: a real server on
 * a loopback socket that a client under test talks to over the wire, with scripted faults at named
 * points of its protocol.
 *
 * <ul>
 *   <li>{@code Fake*.builder()} collects the options; its {@code start()} binds the port and
 *       serves, returning the running fake (static {@code start()} conveniences do the same with
 *       the defaults). A fake serves from start until {@link #close()}; the builder is not kept.
 *   <li>{@link #uri()} is where it serves; point the client there.
 *   <li>Faults are values of a sealed type per protocol, each naming where it strikes. They are
 *       queued in order and matched beyond the head ({@link FaultQueue}): deterministic, with no
 *       clock and no randomness in which request a fault hits.
 *   <li>A fake sets no JVM-wide state: no system property, no default handler.
 * </ul>
 *
 * <p><b>Latency on loopback.</b> The fakes run on the JDK's HTTP server, which turns Nagle's
 * algorithm off only when the JVM runs with {@code -Dsun.net.httpserver.nodelay=true}; it reads the
 * property once, when the first server in the JVM starts, and has no per-server option. Without it
 * an answer whose body follows its headers can wait ~40 ms for the client's delayed ACK. A JVM that
 * times requests passes the flag itself (the build's surefire configuration does).
 *
 * <p>Implementations are thread-safe.
 *
 * @param <F> the protocol's fault type
 */
public interface ProtocolFake<F> extends AutoCloseable {

  /** The base URI, {@code http://127.0.0.1:PORT}, with no path. */
  URI uri();

  /** Queues {@code fault} behind those already queued; it strikes the next request it names. */
  void inject(F fault);

  /** Requests still to be hit by a queued fault (each fault's remaining uses, summed). */
  int pendingFaults();

  /** Forgets every queued fault. */
  void clearFaults();

  /** Stops serving; requests in flight are cut. Idempotent. */
  @Override
  void close();
}
