package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FakeSalesforceTest {

  private static final Instant HOUR = Instant.parse("2026-06-30T00:00:00Z");
  private final HttpClient client = HttpClient.newHttpClient();
  private static final KeyPair TRUSTED = generate();
  private KeyPair keys = TRUSTED;
  private FakeSalesforce sf;

  private static KeyPair generate() {
    try {
      KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
      gen.initialize(2048);
      return gen.generateKeyPair();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeEach
  void start() {
    sf =
        FakeSalesforce.builder()
            .clientId("cid")
            .clientSecret("shh")
            .username("int@example.com")
            .jwtPublicKey(keys.getPublic())
            .queryBatchSize(2)
            .build();
  }

  @AfterEach
  void stop() {
    sf.close();
  }

  @Test
  void jwtSignedWithTheCertificateKeyMintsAToken() throws Exception {
    JsonNode body = json(token(jwt("cid", "int@example.com", sf.baseUrl().toString())));
    assertThat(body.path("access_token").asText()).isNotBlank();
    assertThat(body.path("instance_url").asText()).isEqualTo(sf.baseUrl().toString());
  }

  @Test
  void jwtWithWrongAudienceIsInvalidGrant() throws Exception {
    HttpResponse<String> r = token(jwt("cid", "int@example.com", "https://login.salesforce.com"));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(json(r).path("error").asText()).isEqualTo("invalid_grant");
  }

  @Test
  void jwtSignedWithAnotherKeyIsRejected() throws Exception {
    keys = generate();
    HttpResponse<String> r = token(jwt("cid", "int@example.com", sf.baseUrl().toString()));
    assertThat(json(r).path("error_description").asText()).contains("signature");
  }

  @Test
  void clientCredentialsWithWrongSecretIsInvalidClient() throws Exception {
    HttpResponse<String> r = post("grant_type=client_credentials&client_id=cid&client_secret=no");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(json(r).path("error").asText()).isEqualTo("invalid_client");
  }

  @Test
  void listingPagesThroughNextRecordsUrl() throws Exception {
    for (int i = 0; i < 5; i++) {
      sf.addLogFile("Login", "Hourly", HOUR, HOUR.plusSeconds(60 * i), 3);
    }
    String token = accessToken();
    HttpResponse<String> first = get(token, "/services/data/v60.0/query?q=" + enc(listing()));
    JsonNode page = json(first);
    assertThat(page.path("done").asBoolean()).isFalse();
    assertThat(page.path("records")).hasSize(2);
    assertThat(page.path("records").get(0).path("attributes").path("type").asText())
        .isEqualTo("EventLogFile");
    int total = 2;
    while (page.has("nextRecordsUrl")) {
      page = json(get(token, page.path("nextRecordsUrl").asText()));
      total += page.path("records").size();
    }
    assertThat(total).isEqualTo(5);
  }

  @Test
  void unknownSoqlShapeIsMalformedQuery() throws Exception {
    HttpResponse<String> r =
        get(accessToken(), "/services/data/v60.0/query?q=" + enc("SELECT Id FROM Account"));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("MALFORMED_QUERY");
  }

  @Test
  void expiredTokensGetInvalidSessionId() throws Exception {
    String token = accessToken();
    sf.expireAllTokens();
    HttpResponse<String> r = get(token, "/services/data/v60.0/limits");
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("INVALID_SESSION_ID");
  }

  @Test
  void faultScheduledOverHttpIsServedOnce() throws Exception {
    String token = accessToken();
    HttpResponse<String> scheduled =
        client.send(
            HttpRequest.newBuilder(sf.baseUrl().resolve("/testkit/faults"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"route\":\"query\",\"kind\":\"status\",\"status\":403,"
                            + "\"body\":\"[{\\\"errorCode\\\":\\\"REQUEST_LIMIT_EXCEEDED\\\"}]\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(scheduled.statusCode()).isEqualTo(201);
    String path = "/services/data/v60.0/query?q=" + enc(listing());
    assertThat(get(token, path).statusCode()).isEqualTo(403);
    assertThat(get(token, path).statusCode()).isEqualTo(200);
  }

  @Test
  void logFileStreamsTheGeneratedCsvWithADateHeader() throws Exception {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 50);
    HttpResponse<String> r = get(accessToken(), logFilePath(f));
    assertThat(r.headers().firstValue("Date")).isPresent();
    assertThat(r.body()).startsWith("\"EVENT_TYPE\",\"TIMESTAMP\"");
    assertThat(r.body().getBytes(StandardCharsets.UTF_8)).hasSize((int) sf.byteLength(f));
  }

  @Test
  void cutDownloadBreaksTheStream() throws Exception {
    LogFileSpec f = sf.addLogFile("Login", "Hourly", HOUR, HOUR, 2000);
    sf.inject(Fault.cutMidStream());
    HttpRequest req = authorised(accessToken(), logFilePath(f));
    assertThatThrownBy(
            () -> {
              try (InputStream in =
                  client.send(req, HttpResponse.BodyHandlers.ofInputStream()).body()) {
                in.transferTo(OutputStreamSink.INSTANCE);
              }
            })
        .isInstanceOf(IOException.class);
    assertThat(sf.stats().downloadsCompleted(f.id())).isZero();
  }

  @Test
  void statsReportFilesAndRowsPerEventType() throws Exception {
    sf.addLogFile("Login", "Hourly", HOUR, HOUR, 10);
    sf.addLogFile("Login", "Hourly", HOUR, HOUR.plusSeconds(1), 5);
    sf.addLogFile("API", "Hourly", HOUR, HOUR, 7);
    JsonNode stats =
        json(
            client.send(
                HttpRequest.newBuilder(sf.baseUrl().resolve("/testkit/stats")).build(),
                HttpResponse.BodyHandlers.ofString()));
    assertThat(stats.path("eventlogfile").path("Login").path("rows").asLong()).isEqualTo(15);
    assertThat(stats.path("eventlogfile").path("API").path("files").asLong()).isEqualTo(1);
  }

  // ---- helpers ----

  private static String listing() {
    return "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM EventLogFile"
        + " WHERE EventType='Login' AND Interval='Hourly' AND CreatedDate >= 2026-06-29T00:00:00.000Z"
        + " ORDER BY CreatedDate, Id LIMIT 1000";
  }

  private static String logFilePath(LogFileSpec f) {
    return "/services/data/v60.0/sobjects/EventLogFile/" + f.id() + "/LogFile";
  }

  private String accessToken() throws Exception {
    return json(post("grant_type=client_credentials&client_id=cid&client_secret=shh"))
        .path("access_token")
        .asText();
  }

  private HttpResponse<String> token(String jwt) throws Exception {
    return post("grant_type=" + enc(TokenEndpoint.JWT_GRANT) + "&assertion=" + jwt);
  }

  private HttpResponse<String> post(String form) throws Exception {
    return client.send(
        HttpRequest.newBuilder(sf.baseUrl().resolve("/services/oauth2/token"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest authorised(String token, String path) {
    return HttpRequest.newBuilder(URI.create(sf.baseUrl() + path))
        .header("Authorization", "Bearer " + token)
        .build();
  }

  private HttpResponse<String> get(String token, String path) throws Exception {
    return client.send(authorised(token, path), HttpResponse.BodyHandlers.ofString());
  }

  private String jwt(String iss, String sub, String aud) throws Exception {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header =
        b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    long exp = Instant.now().getEpochSecond() + 180;
    String claims =
        String.format(
            "{\"iss\":\"%s\",\"sub\":\"%s\",\"aud\":\"%s\",\"exp\":%d}", iss, sub, aud, exp);
    String payload = b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    Signature sig = Signature.getInstance("SHA256withRSA");
    sig.initSign(keys.getPrivate());
    sig.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
    return header + "." + payload + "." + b64.encodeToString(sig.sign());
  }

  private static JsonNode json(HttpResponse<String> r) throws IOException {
    return Json.read(r.body());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}
  }
}
