package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.LokiExchanges.headers;
import static io.sf2loki.testkit.loki.LokiExchanges.readBody;
import static io.sf2loki.testkit.loki.LokiExchanges.respond;

import com.sun.net.httpserver.HttpExchange;
import io.sf2loki.testkit.FaultQueue;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code POST /loki/api/v1/push}: applies the next queued {@link Fault} at its point of the
 * exchange, else decodes the body and hands it to the {@link Ingester}; records every push.
 */
final class PushEndpoint {

  private final PushDecoder decoder;
  private final Ingester ingester;
  private final FaultQueue<Fault> faults;
  private final List<EntryRejection> rejections;
  private final List<RecordedPush> pushes;
  private final Consumer<List<DecodedStream>> stored;

  PushEndpoint(
      PushDecoder decoder,
      Ingester ingester,
      FaultQueue<Fault> faults,
      List<EntryRejection> rejections,
      List<RecordedPush> pushes,
      Consumer<List<DecodedStream>> stored) {
    this.decoder = decoder;
    this.ingester = ingester;
    this.faults = faults;
    this.rejections = rejections;
    this.pushes = pushes;
    this.stored = stored;
  }

  void handle(HttpExchange ex) throws IOException {
    try (ex) {
      if (!"POST".equals(ex.getRequestMethod())) {
        respond(ex, 405, "text/plain", "use POST\n");
        return;
      }
      Map<String, String> headers = headers(ex);
      Optional<Fault> fault = faults.take(f -> true); // every fault aims at every push
      if (fault.isPresent() && fault.get() instanceof Fault.DisconnectMidBody) {
        disconnectMidBody(ex.getRequestBody(), headers.get("content-length"));
        pushes.add(new RecordedPush(headers, 0, List.of(), OptionalInt.empty()));
        return; // closing before any response header drops the connection
      }
      byte[] body = readBody(ex.getRequestBody(), headers.get("content-length"));
      if (fault.isPresent() && fault.get() instanceof Fault.Latency latency) {
        sleep(latency.delay());
      }
      if (fault.isPresent() && fault.get() instanceof Fault.Status status) {
        sleep(status.delay());
        status.retryAfter().ifPresent(v -> ex.getResponseHeaders().set("Retry-After", v));
        pushes.add(new RecordedPush(headers, body.length, List.of(), status.status()));
        respond(ex, status.status(), "text/plain", "injected fault\n");
        return;
      }
      if (fault.isPresent() && fault.get() instanceof Fault.LostAnswer) {
        Ingester.Outcome outcome = ingest(headers, body);
        pushes.add(new RecordedPush(headers, body.length, outcome.streams(), OptionalInt.empty()));
        return; // stored, then closed before any response header: the answer is lost
      }
      process(ex, headers, body);
    }
  }

  /** Reads exactly half the announced body (one byte when none is announced), no more. */
  private static void disconnectMidBody(InputStream in, String contentLength) throws IOException {
    int announced = LokiExchanges.announcedLength(contentLength);
    in.readNBytes(Math.max(1, announced / 2));
  }

  private void process(HttpExchange ex, Map<String, String> headers, byte[] body)
      throws IOException {
    List<DecodedStream> streams;
    try {
      streams = decoder.decode(headers.get("content-type"), headers.get("content-encoding"), body);
    } catch (PushDecoder.BodyTooLargeException e) {
      pushes.add(new RecordedPush(headers, body.length, List.of(), 413));
      respond(ex, 413, "text/plain", e.getMessage() + "\n");
      return;
    } catch (PushDecoder.DecodeException e) {
      pushes.add(new RecordedPush(headers, body.length, List.of(), 400));
      respond(ex, 400, "text/plain", e.getMessage() + "\n");
      return;
    }
    Ingester.Outcome outcome = ingest(headers, streams);
    pushes.add(new RecordedPush(headers, body.length, outcome.streams(), outcome.status()));
    if (outcome.status() == 204) {
      stored.accept(streams);
    }
    respond(ex, outcome.status(), "text/plain", outcome.message());
  }

  /** Decodes and ingests a push whose answer will be lost; a body that does not decode is lost. */
  private Ingester.Outcome ingest(Map<String, String> headers, byte[] body) {
    try {
      return ingest(
          headers,
          decoder.decode(headers.get("content-type"), headers.get("content-encoding"), body));
    } catch (PushDecoder.BodyTooLargeException | PushDecoder.DecodeException e) {
      return ingest(headers, List.of());
    }
  }

  private Ingester.Outcome ingest(Map<String, String> headers, List<DecodedStream> streams) {
    String tenant = headers.get("x-scope-orgid");
    return ingester.ingest(
        streams,
        List.copyOf(rejections),
        tenant == null || tenant.isEmpty() ? RejectionReport.SINGLE_TENANT : tenant);
  }

  private static void sleep(Duration delay) {
    if (delay.isZero()) {
      return;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
