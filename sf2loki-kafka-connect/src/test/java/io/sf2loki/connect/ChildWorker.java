package io.sf2loki.connect;

import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A distributed Connect worker in a JVM of its own ({@code ConnectDistributed} with a generated
 * properties file), so that a test can crash it: {@link #kill()} is {@code kill -9}, which, unlike
 * {@code Connect.stop()}, commits no offsets, flushes no producer and leaves the group only when
 * its session times out. Its output goes to {@code <name>.log} beside its properties file.
 */
final class ChildWorker implements AutoCloseable {

  /** Small and quick to start: three of them share two cores with the broker and the test. */
  private static final List<String> JVM_FLAGS =
      List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String name;
  private final Process process;
  private final Path log;
  private final int port;

  private ChildWorker(String name, Process process, Path log, int port) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts a worker and returns once its REST API answers.
   *
   * @param dir where its properties file and log go
   * @param worker its properties ({@link ConnectCluster#workerProperties}); its listener is added
   * @param classPath the JVM's class path: the test JVM's, or the worker's own for a plugin.path
   *     worker
   * @throws IllegalStateException with the log's tail when it dies or does not answer in time
   */
  static ChildWorker start(Path dir, String name, Map<String, String> worker, String classPath)
      throws IOException, InterruptedException {
    return startAll(dir, List.of(name), worker, classPath).get(0);
  }

  /**
   * Starts one worker per name at once (their JVMs start in parallel) and returns once every REST
   * API answers; when one fails, every one is killed.
   */
  static List<ChildWorker> startAll(
      Path dir, List<String> names, Map<String, String> worker, String classPath)
      throws IOException, InterruptedException {
    List<ChildWorker> started = new ArrayList<>();
    try {
      for (String name : names) {
        started.add(launch(dir, name, worker, classPath));
      }
      for (ChildWorker child : started) {
        child.awaitRest(TestTiming.seconds(90));
      }
      return started;
    } catch (IOException | RuntimeException e) {
      started.forEach(ChildWorker::close);
      throw e;
    }
  }

  private static ChildWorker launch(
      Path dir, String name, Map<String, String> worker, String classPath) throws IOException {
    int port = ChildJvms.freePort();
    Properties props = new Properties();
    props.putAll(new TreeMap<>(worker));
    props.put("listeners", "http://127.0.0.1:" + port);
    Path file = dir.resolve(name + ".properties");
    try (Writer out = Files.newBufferedWriter(file)) {
      props.store(out, "ChildWorker " + name);
    }
    Path log = dir.resolve(name + ".log");
    List<String> flags = new ArrayList<>(JVM_FLAGS);
    flags.add(TestTiming.jvmArgument());
    Process process =
        ChildJvms.launch(
            List.of(),
            flags,
            classPath,
            List.of("org.apache.kafka.connect.cli.ConnectDistributed", file.toString()),
            log);
    return new ChildWorker(name, process, log, port);
  }

  private void awaitRest(Duration timeout) {
    ChildJvms.awaitReady(
        process,
        "worker " + name,
        "answer",
        log,
        timeout,
        Duration.ofMillis(200),
        () -> {
          try {
            // /connectors answers 200 only once the herder joined the group and read its configs
            return send("GET", "connectors", null).statusCode() == 200;
          } catch (IOException notYet) {
            return false; // not listening yet
          }
        });
  }

  String name() {
    return name;
  }

  /** The worker id Connect's status shows for this worker ({@code host:port}). */
  String workerId() {
    return "127.0.0.1:" + port;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  HttpResponse<String> send(String method, String path, String json)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** SIGKILL on Linux, and waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("worker " + name + " (pid " + process.pid() + ") survived");
    }
    ChildJvms.ended(process);
  }

  /** The last {@code lines} lines of the worker's output. */
  String logTail(int lines) {
    return ChildJvms.tail(log, lines);
  }

  @Override
  public void close() {
    try {
      kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
