package io.sf2loki.deadline;

import java.io.IOException;

/**
 * One blocking file-system call, run by {@link BlockingIo} on one of its threads.
 *
 * @param <T> what the call returns
 */
@FunctionalInterface
public interface IoCall<T> {

  /**
   * Performs the call.
   *
   * @throws IOException the call failed; passed on to the caller as it is
   */
  T run() throws IOException;
}
