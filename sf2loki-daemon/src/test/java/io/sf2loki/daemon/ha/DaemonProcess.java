package io.sf2loki.daemon.ha;

import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One sf2loki daemon in its own JVM, started from the test class path ({@code
 * io.sf2loki.daemon.Main --config FILE}) or from the shaded jar, with its output in a log file.
 * Signals go to its pid.
 */
public final class DaemonProcess implements AutoCloseable {

  /** A {@code /readyz} answer; status -1 when the endpoint did not answer. */
  public record Readyz(int status, String body) {
    /** 200: a healthy leader. */
    public boolean ready() {
      return status == 200;
    }

    /** 503 {@code standby}. */
    public boolean standby() {
      return status == 503 && body.strip().equals("standby");
    }

    /** A leader, healthy or degraded (503 {@code degraded: ...}). */
    public boolean leading() {
      return ready() || status == 503 && body.startsWith("degraded");
    }
  }

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final String name;
  private final int httpPort;
  private final Path log;
  private final Process process;

  private DaemonProcess(String name, int httpPort, Path log, Process process) {
    this.name = name;
    this.httpPort = httpPort;
    this.log = log;
    this.process = process;
  }

  /** Starts {@code io.sf2loki.daemon.Main --config config} from the test class path. */
  public static DaemonProcess start(String name, Path config, int httpPort, Path log) {
    return launch(
        name,
        List.of("-cp", System.getProperty("java.class.path"), "io.sf2loki.daemon.Main"),
        config,
        httpPort,
        log);
  }

  /** Starts {@code java -jar jar --config config}: the shaded jar as it ships. */
  public static DaemonProcess startJar(String name, Path jar, Path config, int httpPort, Path log) {
    return launch(name, List.of("-jar", jar.toString()), config, httpPort, log);
  }

  private static DaemonProcess launch(
      String name, List<String> program, Path config, int httpPort, Path log) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // Small, quick-starting JVMs: the build machine runs several of them at once.
    command.addAll(List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k"));
    command.addAll(program);
    command.addAll(List.of("--config", config.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().keySet().removeIf(k -> k.startsWith("SF2LOKI_"));
    try {
      return new DaemonProcess(name, httpPort, log, builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start daemon " + name, e);
    }
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** {@code GET /readyz}. */
  public Readyz readyz() {
    try {
      HttpResponse<String> r = get("/readyz");
      return new Readyz(r.statusCode(), r.body());
    } catch (IOException e) {
      return new Readyz(-1, e.toString());
    }
  }

  /** Standing by after at least one of its commits was fenced (a demoted leader come back). */
  public boolean fencedAndStandingBy() {
    return readyz().standby()
        && metric("sf2loki_checkpoint_commits_total", "outcome=\"fenced\"") >= 1;
  }

  /**
   * The sum of the Prometheus samples of {@code metric} whose label set contains {@code labels}
   * (e.g. {@code outcome="fenced"}); 0 when absent or unreachable.
   */
  public double metric(String metric, String labels) {
    String text;
    try {
      text = get("/metrics").body();
    } catch (IOException e) {
      return 0;
    }
    double sum = 0;
    for (String line : text.split("\n")) {
      if ((line.startsWith(metric + "{") || line.startsWith(metric + " "))
          && line.contains(labels)) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  private HttpResponse<String> get(String path) throws IOException {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
              .timeout(TestTiming.seconds(2))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** SIGKILL, and waits for the process to be gone. */
  public void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
  }

  /** SIGTERM; does not wait. */
  public void sigterm() {
    process.destroy();
  }

  public void sigstop() throws IOException, InterruptedException {
    signal("STOP");
  }

  public void sigcont() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    int code =
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
            .inheritIO()
            .start()
            .waitFor();
    if (code != 0) {
      throw new IOException("kill -" + signal + " " + process.pid() + " exited " + code);
    }
  }

  /** The exit code, waiting up to {@code timeout}; -1 if still running. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly(); // SIGKILL also ends a stopped process
      try {
        process.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", http " + httpPort + ")";
  }
}
