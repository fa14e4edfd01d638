package io.sf2loki.testkit.gcs;

import static io.sf2loki.testkit.gcs.GcsWire.error;
import static io.sf2loki.testkit.gcs.GcsWire.json;
import static io.sf2loki.testkit.gcs.GcsWire.metadataOf;

import io.sf2loki.testkit.gcs.GcsWire.Reply;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stored objects and what each operation does to them. Not thread-safe: the server applies
 * every request under one lock, which makes each check-and-set linearizable.
 */
final class GcsBuckets {

  private final Map<String, GcsObject> objects = new HashMap<>();
  private long nextGeneration = 1_700_000_000_000_000L;

  Optional<GcsObject> get(String bucket, String name) {
    return Optional.ofNullable(objects.get(bucket + "/" + name));
  }

  GcsObject put(String bucket, String name, byte[] data, String contentType) {
    GcsObject o = new GcsObject(bucket, name, data.clone(), nextGeneration++, contentType);
    objects.put(bucket + "/" + name, o);
    return o;
  }

  Reply upload(
      String bucket, String name, byte[] data, String mediaType, Optional<String> precondition) {
    GcsObject current = objects.get(bucket + "/" + name);
    if (precondition.isPresent() && !matches(current, precondition.get())) {
      return error(412, "conditionNotMet", "conditionNotMet");
    }
    return json(200, metadataOf(put(bucket, name, data, mediaType)));
  }

  Reply metadata(String bucket, String name) {
    return get(bucket, name)
        .map(o -> json(200, metadataOf(o)))
        .orElseGet(() -> notFound(bucket, name));
  }

  Reply download(String bucket, String name, Optional<String> generation) {
    Optional<GcsObject> current =
        get(bucket, name)
            .filter(o -> generation.isEmpty() || generation.get().equals(gen(o.generation())));
    if (current.isEmpty()) {
      return notFound(bucket, name);
    }
    GcsObject o = current.get();
    return new Reply(
        200,
        Map.of(
            "Content-Type", o.contentType(),
            "x-goog-generation", gen(o.generation()),
            "x-goog-hash", "crc32c=" + GcsWire.crc32c(o.data()) + ",md5=" + GcsWire.md5(o.data())),
        o.data());
  }

  Reply delete(String bucket, String name, Optional<String> precondition) {
    GcsObject current = objects.get(bucket + "/" + name);
    if (current == null) {
      return notFound(bucket, name);
    }
    if (precondition.isPresent() && !matches(current, precondition.get())) {
      return error(412, "conditionNotMet", "conditionNotMet");
    }
    objects.remove(bucket + "/" + name);
    return new Reply(204, Map.of(), new byte[0]);
  }

  private static Reply notFound(String bucket, String name) {
    return error(404, "notFound", "No such object: " + bucket + "/" + name);
  }

  private static String gen(long generation) {
    return Long.toString(generation);
  }

  private static boolean matches(GcsObject current, String precondition) {
    long expected = Long.parseLong(precondition);
    return expected == 0 ? current == null : current != null && current.generation() == expected;
  }
}
