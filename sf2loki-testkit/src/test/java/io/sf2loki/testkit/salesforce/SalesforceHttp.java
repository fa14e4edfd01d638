package io.sf2loki.testkit.salesforce;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The requests a Salesforce client sends, against one fake, for the fault tests. */
final class SalesforceHttp {

  private final HttpClient client = HttpClient.newHttpClient();
  private final URI base;

  SalesforceHttp(URI base) {
    this.base = base;
  }

  /** A client-credentials token request for client {@code cid} with secret {@code shh}. */
  HttpResponse<String> token() throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(base.resolve("/services/oauth2/token"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "grant_type=client_credentials&client_id=cid&client_secret=shh"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  String accessToken() throws IOException, InterruptedException {
    return Json.read(token().body()).path("access_token").asText();
  }

  HttpResponse<String> get(String token, String path) throws IOException, InterruptedException {
    return client.send(authorised(token, path), HttpResponse.BodyHandlers.ofString());
  }

  /** A REST SOQL query of {@code soql} with a fresh token. */
  HttpResponse<String> query(String soql) throws IOException, InterruptedException {
    return get(
        accessToken(),
        "/services/data/v60.0/query?q="
            + java.net.URLEncoder.encode(soql, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Downloads {@code path} to the end; the byte count, or an IOException when it broke off. */
  long download(String token, String path) throws IOException, InterruptedException {
    try (InputStream in =
        client.send(authorised(token, path), HttpResponse.BodyHandlers.ofInputStream()).body()) {
      return in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** Posts {@code json} to {@code /testkit/faults}. */
  HttpResponse<String> scheduleFault(String json) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(base.resolve("/testkit/faults"))
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String logFilePath(LogFileSpec f) {
    return "/services/data/v60.0/sobjects/EventLogFile/" + f.id() + "/LogFile";
  }

  private HttpRequest authorised(String token, String path) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .header("Authorization", "Bearer " + token)
        .build();
  }
}
