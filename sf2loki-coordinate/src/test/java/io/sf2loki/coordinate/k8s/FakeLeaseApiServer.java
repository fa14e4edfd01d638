package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Status;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * A linearizable in-memory Kubernetes API server for the Lease REST subset, plugged into
 * client-java as OkHttp's terminal interceptor: the client serializes real requests with its own
 * {@link JSON} and parses real responses and status codes into {@code ApiException}s, but no socket
 * and no server thread is involved. Requests therefore run on the calling (simulated-time
 * participant) thread and take no simulated time, which keeps the property tests fast and
 * deterministic.
 *
 * <p>Semantics as the apiserver's for {@code coordination.k8s.io/v1} Leases: GET 404 when absent;
 * POST 409 when the name exists and 400 when a resourceVersion is set; PUT 404 when absent, 409
 * when the body's resourceVersion is not the current one (an empty one is an unconditional update,
 * as Leases allow); DELETE 404 when absent. Every write assigns a new resourceVersion from one
 * cluster-wide counter that never goes back (etcd's revision), so a recreated Lease never repeats a
 * version.
 */
final class FakeLeaseApiServer implements Interceptor {

  private static final MediaType JSON_TYPE = MediaType.get("application/json");
  private static final Pattern PATH =
      Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/([^/]+)/leases(?:/([^/]+))?");

  private final Map<String, V1Lease> leases = new HashMap<>();
  private long revision;

  /** A client whose requests pass {@code faults} (may be null) and end here. */
  CoordinationV1Api api(Interceptor faults) {
    OkHttpClient.Builder http = new OkHttpClient.Builder();
    if (faults != null) {
      http.addInterceptor(faults);
    }
    ApiClient client = new ApiClient(http.addInterceptor(this).build());
    client.setBasePath("http://apiserver.invalid");
    return new CoordinationV1Api(client);
  }

  /** The stored Lease, a copy. */
  synchronized Optional<V1Lease> get(String namespace, String name) {
    return Optional.ofNullable(leases.get(namespace + "/" + name)).map(FakeLeaseApiServer::copy);
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Reply reply = handle(request.method(), request.url().encodedPath(), bodyOf(request));
    return new Response.Builder()
        .request(request)
        .protocol(Protocol.HTTP_1_1)
        .code(reply.code())
        .message(reply.reason())
        .body(ResponseBody.create(reply.body(), JSON_TYPE))
        .build();
  }

  private record Reply(int code, String reason, String body) {}

  private synchronized Reply handle(String method, String path, String body) {
    Matcher m = PATH.matcher(path);
    if (!m.matches()) {
      return failure(404, "NotFound", "no route " + method + " " + path);
    }
    String namespace = m.group(1);
    String name = m.group(2);
    if (name == null) {
      return "POST".equals(method)
          ? create(namespace, JSON.deserialize(body, V1Lease.class))
          : failure(405, "MethodNotAllowed", method + " on the collection");
    }
    String key = namespace + "/" + name;
    V1Lease stored = leases.get(key);
    if (stored == null && !"POST".equals(method)) {
      return failure(404, "NotFound", "leases.coordination.k8s.io \"" + name + "\" not found");
    }
    return switch (method) {
      case "GET" -> ok(200, stored);
      case "PUT" -> replace(key, stored, JSON.deserialize(body, V1Lease.class));
      case "DELETE" -> delete(key);
      default -> failure(405, "MethodNotAllowed", method + " on a lease");
    };
  }

  private Reply create(String namespace, V1Lease lease) {
    V1ObjectMeta meta = lease.getMetadata() == null ? new V1ObjectMeta() : lease.getMetadata();
    if (meta.getName() == null || meta.getName().isEmpty()) {
      return failure(422, "Invalid", "metadata.name: Required value");
    }
    if (meta.getResourceVersion() != null && !meta.getResourceVersion().isEmpty()) {
      return failure(
          400, "BadRequest", "resourceVersion should not be set on objects to be created");
    }
    String key = namespace + "/" + meta.getName();
    if (leases.containsKey(key)) {
      return failure(
          409,
          "AlreadyExists",
          "leases.coordination.k8s.io \"" + meta.getName() + "\" already exists");
    }
    meta.namespace(namespace).uid("uid-" + (revision + 1));
    return store(key, lease.metadata(meta), 201);
  }

  private Reply replace(String key, V1Lease stored, V1Lease lease) {
    V1ObjectMeta meta = lease.getMetadata() == null ? new V1ObjectMeta() : lease.getMetadata();
    String version = meta.getResourceVersion();
    if (version != null
        && !version.isEmpty()
        && !version.equals(stored.getMetadata().getResourceVersion())) {
      return failure(
          409,
          "Conflict",
          "Operation cannot be fulfilled on leases.coordination.k8s.io \""
              + stored.getMetadata().getName()
              + "\": the object has been modified; please apply your changes to the latest version"
              + " and try again");
    }
    meta.name(stored.getMetadata().getName())
        .namespace(stored.getMetadata().getNamespace())
        .uid(stored.getMetadata().getUid());
    return store(key, lease.metadata(meta), 200);
  }

  private Reply delete(String key) {
    leases.remove(key);
    revision++;
    String status =
        JSON.serialize(new V1Status().kind("Status").apiVersion("v1").status("Success"));
    return new Reply(200, "OK", status);
  }

  private Reply store(String key, V1Lease lease, int code) {
    lease.apiVersion("coordination.k8s.io/v1").kind("Lease");
    lease.getMetadata().resourceVersion(Long.toString(++revision));
    leases.put(key, copy(lease));
    return ok(code, lease);
  }

  private static Reply ok(int code, V1Lease lease) {
    return new Reply(code, code == 201 ? "Created" : "OK", JSON.serialize(lease));
  }

  private static Reply failure(int code, String reason, String message) {
    V1Status status =
        new V1Status()
            .kind("Status")
            .apiVersion("v1")
            .status("Failure")
            .reason(reason)
            .message(message)
            .code(code);
    return new Reply(code, reason, JSON.serialize(status));
  }

  private static String bodyOf(Request request) throws IOException {
    if (request.body() == null) {
      return "";
    }
    try (Buffer buffer = new Buffer()) {
      request.body().writeTo(buffer);
      return buffer.readUtf8();
    }
  }

  private static V1Lease copy(V1Lease lease) {
    return JSON.deserialize(JSON.serialize(lease), V1Lease.class);
  }
}
