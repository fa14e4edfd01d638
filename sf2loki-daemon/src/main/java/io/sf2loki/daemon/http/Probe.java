package io.sf2loki.daemon.http;

/** One health endpoint's answer, evaluated per request. */
@FunctionalInterface
public interface Probe {

  /** The answer now. */
  Answer answer();
}
