package io.sf2loki.testkit.gcs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The JSON API requests the tests send, as google-cloud-storage puts them on the wire. */
final class GcsHttp {

  private final HttpClient http = HttpClient.newHttpClient();
  private final String endpoint;

  GcsHttp(String endpoint) {
    this.endpoint = endpoint;
  }

  /** A multipart upload of {@code content} to {@code bkt/name}, conditional on a generation. */
  HttpResponse<String> upload(String name, String content, long ifGenerationMatch)
      throws IOException, InterruptedException {
    String boundary = "b0undary";
    String body =
        "--"
            + boundary
            + "\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
            + "{\"name\":\""
            + name
            + "\",\"contentType\":\"application/json\"}\r\n"
            + "--"
            + boundary
            + "\r\nContent-Type: application/json\r\n\r\n"
            + content
            + "\r\n--"
            + boundary
            + "--\r\n";
    URI uri =
        URI.create(
            endpoint
                + "/upload/storage/v1/b/bkt/o?uploadType=multipart&projection=full"
                + "&ifGenerationMatch="
                + ifGenerationMatch);
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "multipart/related; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(endpoint + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The metadata of {@code bkt/name}. */
  HttpResponse<String> metadata(String name) throws IOException, InterruptedException {
    return get("/storage/v1/b/bkt/o/" + name);
  }

  /** An unconditional delete of {@code bkt/name}. */
  HttpResponse<String> delete(String name) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(endpoint + "/storage/v1/b/bkt/o/" + name))
            .DELETE()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
