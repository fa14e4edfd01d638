package io.sf2loki.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.loki.PushDecoder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the end-to-end benchmark pushes: the real fake Loki (in this JVM or in a child JVM, so its
 * stored entries do not count against our heap), or a lean loopback receiver that only reads the
 * body ({@code null}) or reads and decodes it with the testkit's independent decoder without
 * storing anything ({@code decode}). Comparing them separates our sink's cost from the receiver's.
 */
abstract class BenchReceiver implements AutoCloseable {

  abstract URI baseUri();

  /** Entries the receiver accepted (-1 when it does not decode). */
  abstract long entries() throws IOException, InterruptedException;

  @Override
  public abstract void close();

  /** CPU the receiver spent in its own process, when it runs in one (else zero). */
  Duration childCpu() {
    return Duration.ZERO;
  }

  /** The receiver's process id when it runs in a child JVM, else -1. */
  long childPid() {
    return -1;
  }

  /**
   * TCP_NODELAY for the JDK servers of this JVM (the in-process fake Loki, the lean receivers): the
   * JDK reads it once, at its first server, and no fake sets it for us. Without it, a small answer
   * on loopback can stall ~40 ms on Nagle against the client's delayed ACK.
   */
  static final String NO_DELAY = "sun.net.httpserver.nodelay";

  static BenchReceiver start(String kind) throws IOException, InterruptedException {
    System.setProperty(NO_DELAY, "true");
    return switch (kind) {
      case "fake" ->
          new InProcessFake(
              FakeLoki.start(
                  0,
                  LokiLimits.defaults(),
                  Clock.systemUTC(),
                  FakeLoki.PushRecording.HEADERS_ONLY));
      case "fake-process" -> ChildFake.start(FakeLoki.class.getName());
      case "decode-process" -> ChildFake.start(BenchReceiver.class.getName());
      case "decode" -> new Lean(true, 0);
      case "null" -> new Lean(false, 0);
      default ->
          throw new IllegalArgumentException(
              "receiver must be fake|fake-process|decode|decode-process|null");
    };
  }

  private static final class InProcessFake extends BenchReceiver {
    private final FakeLoki loki;

    InProcessFake(FakeLoki loki) {
      this.loki = loki;
    }

    @Override
    URI baseUri() {
      return loki.baseUri();
    }

    @Override
    long entries() {
      return loki.stats().entries();
    }

    @Override
    public void close() {
      loki.close();
    }
  }

  /** The decoding receiver alone, in its own JVM: {@code BenchReceiver <port>}. */
  public static void main(String[] args) throws IOException {
    System.setProperty(NO_DELAY, "true");
    Lean lean = new Lean(true, Integer.parseInt(args[0]));
    System.out.println("decoding receiver listening on " + lean.baseUri());
  }

  /** {@code FakeLoki.main} (or the decoding receiver's main) in a child JVM on our class path. */
  private static final class ChildFake extends BenchReceiver {
    private final Process process;
    private final URI base;

    private ChildFake(Process process, URI base) {
      this.process = process;
      this.base = base;
    }

    static ChildFake start(String mainClass) throws IOException {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      List<String> command = new ArrayList<>();
      command.add(ProcessHandle.current().info().command().orElse("java"));
      // The fake keeps every line it stores: a million 1 KiB lines grow its heap by a GiB. Mapped
      // as it grows, that costs ~500k page faults, 3-4 s of kernel CPU (as much as all the fake's
      // own work) that a long-running Loki paid long ago. So the child's heap is fixed, touched
      // before it listens, and backed by 2 MiB pages.
      String heap = System.getProperty("bench.fakeLokiHeap", "4g");
      command.addAll(
          List.of(
              "-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages"));
      // Extra child JVM flags, separated by spaces or semicolons, e.g.
      // -Dbench.childJvm=-XX:StartFlightRecording=...
      String extra = System.getProperty("bench.childJvm", "").trim();
      if (!extra.isEmpty()) {
        command.addAll(List.of(extra.split("[\\s;]+")));
      }
      command.add("-D" + NO_DELAY + "=true"); // the child's servers: FakeLoki sets no property
      command.addAll(
          List.of("-cp", System.getProperty("java.class.path"), mainClass, Integer.toString(port)));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.contains("listening on")) {
        // skip startup logging
      }
      if (line == null) {
        throw new IOException("fake Loki child exited before listening");
      }
      // Keep reading its output (JFR or GC logging asked for in bench.childJvm), or a full pipe
      // would stall the child.
      Thread drain =
          new Thread(
              () -> {
                try {
                  out.transferTo(java.io.Writer.nullWriter());
                } catch (IOException e) {
                  // the child ended
                }
              },
              "bench-child-output");
      drain.setDaemon(true);
      drain.start();
      return new ChildFake(p, URI.create("http://127.0.0.1:" + port));
    }

    @Override
    URI baseUri() {
      return base;
    }

    @Override
    long entries() throws IOException, InterruptedException {
      HttpClient client = HttpClient.newHttpClient();
      String stats =
          client
              .send(
                  HttpRequest.newBuilder(base.resolve("/testkit/stats")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      String n = stats.replaceAll(".*\"entries\"\\s*:\\s*(\\d+).*", "$1");
      return Long.parseLong(n.trim());
    }

    @Override
    Duration childCpu() {
      return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    @Override
    long childPid() {
      return process.pid();
    }

    @Override
    public void close() {
      process.destroy();
    }
  }

  /** A receiver that stores nothing: reads (and optionally decodes) each push, answers 204. */
  private static final class Lean extends BenchReceiver {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final PushDecoder decoder = new PushDecoder(Integer.MAX_VALUE);
    private final AtomicLong entries = new AtomicLong();
    private final boolean decode;

    Lean(boolean decode, int port) throws IOException {
      this.decode = decode;
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
      server.setExecutor(executor);
      server.createContext(FakeLoki.PUSH_PATH, this::handle);
      server.createContext(
          "/testkit/stats",
          ex -> {
            try (ex) {
              byte[] body =
                  ("{\"entries\": " + entries.get() + "}").getBytes(StandardCharsets.UTF_8);
              ex.sendResponseHeaders(200, body.length);
              ex.getResponseBody().write(body);
            }
          });
      server.start();
    }

    private void handle(HttpExchange ex) throws IOException {
      try (ex) {
        byte[] body = ex.getRequestBody().readAllBytes();
        if (decode) {
          String type = ex.getRequestHeaders().getFirst("Content-Type");
          String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
          try {
            List<DecodedStream> streams = decoder.decode(type, encoding, body);
            entries.addAndGet(streams.stream().mapToLong(s -> s.entries().size()).sum());
          } catch (PushDecoder.DecodeException | PushDecoder.BodyTooLargeException e) {
            ex.sendResponseHeaders(400, -1);
            return;
          }
        }
        ex.sendResponseHeaders(204, -1);
      }
    }

    @Override
    URI baseUri() {
      InetSocketAddress a = server.getAddress();
      return URI.create(
          String.format(Locale.ROOT, "http://%s:%d", a.getAddress().getHostAddress(), a.getPort()));
    }

    @Override
    long entries() {
      return decode ? entries.get() : -1;
    }

    @Override
    public void close() {
      server.stop(0);
      executor.shutdownNow();
    }
  }
}
