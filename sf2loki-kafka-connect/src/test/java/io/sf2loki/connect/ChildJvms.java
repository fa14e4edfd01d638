package io.sf2loki.connect;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What {@link ChildWorker} and {@link ChildBroker} share: launching a JVM on the given class path
 * with its output in a file, a free loopback port, the tail of a child's log, and the reaper that
 * kills every child still running when the test or bench JVM exits (a surefire timeout, an
 * exception before a test's own clean-up), so that no orphan keeps its ports and CPU.
 */
final class ChildJvms {

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "child-reaper"));
  }

  private ChildJvms() {}

  /**
   * Starts {@code java <jvmFlags> -cp <classPath> <main>}, after {@code prefix} (e.g. {@code
   * taskset -c 1}), its output and errors to {@code output}.
   */
  static Process launch(
      List<String> prefix, List<String> jvmFlags, String classPath, List<String> main, Path output)
      throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.add("-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener");
    command.add("-cp");
    command.add(classPath);
    command.addAll(main);
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(output.toFile()))
            .start();
    LIVE.add(process);
    return process;
  }

  /**
   * Waits until {@code ready} says so, polling every {@code interval}.
   *
   * @param what the child, for the messages ("the broker", "worker w1")
   * @param doing what it did not do in time ("listen", "answer")
   * @throws IllegalStateException with the log's tail when the child exits or is not ready in time
   */
  static void awaitReady(
      Process process,
      String what,
      String doing,
      Path log,
      Duration timeout,
      Duration interval,
      Callable<Boolean> ready) {
    try {
      await()
          .atMost(timeout)
          .pollInterval(interval)
          .until(
              () -> {
                if (!process.isAlive()) {
                  throw new IllegalStateException(
                      what + " exited with " + process.exitValue() + ":\n" + tail(log, 60));
                }
                return ready.call();
              });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(
          what + " did not " + doing + " within " + timeout + ":\n" + tail(log, 60), e);
    }
  }

  /** {@code process} is gone: the reaper forgets it. */
  static void ended(Process process) {
    LIVE.remove(process);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The last {@code lines} lines of {@code file}. */
  static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
