package io.sf2loki.coordinate.k8s;

import io.sf2loki.tck.SimulatedTime;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * One process's view of the API server, with injected faults: a simulated stall before its next
 * write (a GC pause between reading the Lease and replacing it, a hung connection), and an outage
 * during which every request fails at the transport (a network partition; forever for a killed
 * process). Runs on the calling thread, so the stall is a simulated sleep of that participant.
 */
final class FaultyTransport implements Interceptor {

  private final SimulatedTime time;
  private volatile Duration pauseBeforeNextWrite = Duration.ZERO;
  private volatile long downUntilNanos = Long.MIN_VALUE;

  FaultyTransport(SimulatedTime time) {
    this.time = time;
  }

  /** The next POST or PUT first sleeps {@code pause} of simulated time. */
  void pauseBeforeNextWrite(Duration pause) {
    pauseBeforeNextWrite = pause;
  }

  /** Every request fails for {@code outage} of simulated time from now. */
  void downFor(Duration outage) {
    downUntilNanos = time.nanos() + outage.toNanos();
  }

  /** Every request fails from now on (a killed process neither renews nor releases). */
  void downForever() {
    pauseBeforeNextWrite = Duration.ZERO;
    downUntilNanos = Long.MAX_VALUE;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    String method = chain.request().method();
    Duration pause = pauseBeforeNextWrite;
    if (!pause.isZero() && ("POST".equals(method) || "PUT".equals(method))) {
      pauseBeforeNextWrite = Duration.ZERO;
      try {
        time.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted during injected pause");
      }
    }
    if (time.nanos() < downUntilNanos) {
      throw new IOException("injected: connection refused");
    }
    return chain.proceed(chain.request());
  }
}
