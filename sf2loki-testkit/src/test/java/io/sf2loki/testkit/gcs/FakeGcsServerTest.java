package io.sf2loki.testkit.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake speaks the JSON API's wire format and enforces generation preconditions atomically. */
class FakeGcsServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private FakeGcsServer gcs;

  @BeforeEach
  void start() throws Exception {
    gcs = FakeGcsServer.start();
  }

  @AfterEach
  void stop() {
    gcs.close();
  }

  private HttpResponse<String> upload(String name, String content, long ifGenerationMatch)
      throws Exception {
    return new GcsHttp(gcs.endpoint()).upload(name, content, ifGenerationMatch);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return new GcsHttp(gcs.endpoint()).get(path);
  }

  private static long generationOf(HttpResponse<String> response) throws Exception {
    JsonNode meta = JSON.readTree(response.body());
    assertThat(meta.get("generation").isTextual()).as("generation is a JSON string").isTrue();
    return Long.parseLong(meta.get("generation").asText());
  }

  @Test
  void inTheIgnoresPreconditionsModeStalePreconditionsAreAcceptedAsABrokenEndpointWould()
      throws Exception {
    long created = generationOf(upload("a/state.json", "{}", 0));
    gcs.ignorePreconditions(true);

    assertThat(upload("a/state.json", "{\"x\":\"1\"}", 0).statusCode()).isEqualTo(200);
    assertThat(upload("a/state.json", "{\"x\":\"2\"}", created).statusCode()).isEqualTo(200);
    assertThat(gcs.requests()).contains("UPLOAD bkt/a/state.json ifGenerationMatch=0");

    gcs.ignorePreconditions(false);
    assertThat(upload("a/state.json", "{}", 0).statusCode()).isEqualTo(412);
  }

  @Test
  void createWithGenerationZeroSucceedsOnceThenAnswers412ConditionNotMet() throws Exception {
    assertThat(upload("a/state.json", "{}", 0).statusCode()).isEqualTo(200);
    HttpResponse<String> second = upload("a/state.json", "{\"x\":\"y\"}", 0);
    assertThat(second.statusCode()).isEqualTo(412);
    JsonNode error = JSON.readTree(second.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(412);
    assertThat(error.get("errors").get(0).get("reason").asText()).isEqualTo("conditionNotMet");
    assertThat(gcs.object("bkt", "a/state.json").orElseThrow().data()).isEqualTo("{}".getBytes());
  }

  @Test
  void generationMatchReplacesAndAStaleGenerationIsRefused() throws Exception {
    long first = generationOf(upload("s.json", "1", 0));
    long second = generationOf(upload("s.json", "2", first));
    assertThat(second).isGreaterThan(first);
    assertThat(upload("s.json", "3", first).statusCode()).isEqualTo(412);
    assertThat(new String(gcs.object("bkt", "s.json").orElseThrow().data(), StandardCharsets.UTF_8))
        .isEqualTo("2");
  }

  @Test
  void metadataAndDownloadUseUrlEncodedNamesAndGenerations() throws Exception {
    long generation = generationOf(upload("dir/s.json", "hello", 0));
    assertThat(generationOf(get("/storage/v1/b/bkt/o/dir%2Fs.json"))).isEqualTo(generation);
    assertThat(get("/download/storage/v1/b/bkt/o/dir%2Fs.json?alt=media").body())
        .isEqualTo("hello");
    assertThat(
            get("/download/storage/v1/b/bkt/o/dir%2Fs.json?alt=media&generation="
                    + (generation - 1))
                .statusCode())
        .isEqualTo(404);
    assertThat(get("/storage/v1/b/bkt/o/missing.json").statusCode()).isEqualTo(404);
  }

  @Test
  void deleteHonoursItsPrecondition() throws Exception {
    long generation = generationOf(upload("d.json", "x", 0));
    URI stale = URI.create(gcs.endpoint() + "/storage/v1/b/bkt/o/d.json?ifGenerationMatch=1");
    assertThat(
            http.send(
                    HttpRequest.newBuilder(stale).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(412);
    URI current =
        URI.create(gcs.endpoint() + "/storage/v1/b/bkt/o/d.json?ifGenerationMatch=" + generation);
    assertThat(
            http.send(
                    HttpRequest.newBuilder(current).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(204);
    assertThat(gcs.object("bkt", "d.json")).isEmpty();
  }

  @Test
  void racingWritersOnOneGenerationHaveExactlyOneWinner() throws Exception {
    long base = generationOf(upload("race.json", "0", 0));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String content = "writer-" + i;
        Callable<Integer> write = () -> upload("race.json", content, base).statusCode();
        results.add(pool.submit(write));
      }
      List<Integer> statuses = new ArrayList<>();
      for (Future<Integer> f : results) {
        statuses.add(f.get());
      }
      assertThat(statuses).containsOnly(200, 412).filteredOn(s -> s == 200).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }
}
