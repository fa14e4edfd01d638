package io.sf2loki.bench;

import com.github.luben.zstd.ZstdInputStream;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;

/**
 * The OTLP counterpart of {@link BenchReceiver}'s lean receivers: stores nothing, reads each export
 * ({@code null}) or also gunzips and parses it with the official classes, counting its records
 * ({@code decode}), and answers 200 with an empty body (an empty {@code ExportLogsServiceResponse}:
 * full success).
 */
final class OtlpReceiver implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final AtomicLong records = new AtomicLong();
  private final boolean decode;

  OtlpReceiver(boolean decode) throws IOException {
    System.setProperty(BenchReceiver.NO_DELAY, "true");
    this.decode = decode;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(executor);
    server.createContext("/v1/logs", this::handle);
    server.start();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      byte[] body = ex.getRequestBody().readAllBytes();
      if (decode) {
        String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
        ByteArrayInputStream raw = new ByteArrayInputStream(body);
        try (InputStream in =
            switch (encoding == null ? "" : encoding) {
              case "gzip" -> new GZIPInputStream(raw, 65536);
              case "zstd" -> new ZstdInputStream(raw);
              case "lz4" -> new LZ4FrameInputStream(raw);
              default -> raw;
            }) {
          long n = 0;
          for (ResourceLogs r : ExportLogsServiceRequest.parseFrom(in).getResourceLogsList()) {
            for (ScopeLogs s : r.getScopeLogsList()) {
              n += s.getLogRecordsCount();
            }
          }
          records.addAndGet(n);
        } catch (IOException e) {
          ex.sendResponseHeaders(400, -1);
          return;
        }
      }
      ex.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      ex.sendResponseHeaders(200, -1);
    }
  }

  URI baseUri() {
    InetSocketAddress a = server.getAddress();
    return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort());
  }

  /** Records received (-1 when it does not decode). */
  long records() {
    return decode ? records.get() : -1;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
