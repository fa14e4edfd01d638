package io.sf2loki.daemon.soak;

import io.sf2loki.daemon.ha.DaemonProcess;
import java.util.Optional;

/**
 * One replica of the pair ({@code a} or {@code b}) across its incarnations: every restart is a new
 * process with a new writer name ({@code a-1}, {@code a-2}, ...) and holder id. Thread-safe: the
 * fault streams and the watch share it.
 */
final class SoakNode {

  private final String name;
  private final int httpPort;
  private DaemonProcess process;
  private int incarnation;
  private boolean paused;
  private boolean exitExpected;

  SoakNode(String name, int httpPort) {
    this.name = name;
    this.httpPort = httpPort;
  }

  String name() {
    return name;
  }

  int httpPort() {
    return httpPort;
  }

  /** The writer name the next incarnation will have. */
  synchronized String nextWriter() {
    return name + "-" + (incarnation + 1);
  }

  /** Installs the next incarnation's process. */
  synchronized void started(DaemonProcess next) {
    incarnation++;
    process = next;
    paused = false;
    exitExpected = false;
  }

  /** The current incarnation's writer name, e.g. {@code a-3}. */
  synchronized String writer() {
    return name + "-" + incarnation;
  }

  synchronized Optional<DaemonProcess> process() {
    return Optional.ofNullable(process);
  }

  /** Running and not stopped by a signal: its endpoints can answer. */
  synchronized boolean isUp() {
    return process != null && process.isAlive() && !paused;
  }

  /** {@code /readyz}, or status -1 when the process is down or paused (it could not answer). */
  DaemonProcess.Readyz readyz() {
    DaemonProcess p;
    synchronized (this) {
      if (!isUp()) {
        return new DaemonProcess.Readyz(-1, paused ? "paused" : "down");
      }
      p = process;
    }
    return p.readyz();
  }

  /** The soak is about to end this incarnation itself (a kill or a SIGTERM). */
  synchronized void expectExit() {
    exitExpected = true;
  }

  synchronized void paused(boolean value) {
    paused = value;
  }

  /** True when the process ended although nobody ended it. */
  synchronized boolean diedUnexpectedly() {
    return process != null && !exitExpected && !process.isAlive();
  }

  @Override
  public synchronized String toString() {
    return writer() + (process == null ? "" : " (pid " + process.pid() + ")");
  }
}
