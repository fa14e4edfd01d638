package io.sf2loki.state.internal;

import java.util.Optional;

/**
 * One object in an object store with conditional writes (S3 ETag, GCS generation). Implementations
 * translate their client's failures into {@link BackendException}s; they do not retry.
 */
public interface ObjectBackend extends AutoCloseable {

  /** {@code s3://bucket/key} or {@code gs://bucket/object}, for messages. */
  String location();

  /**
   * Reads the object; the version always belongs to the body of the same response.
   *
   * @return empty when the object does not exist
   * @throws BackendException on failure
   */
  Optional<StoredObject> read();

  /**
   * Writes {@code body} only if the object is still at {@code expected} (absent when empty).
   *
   * @return the new version
   * @throws BackendException with {@link BackendException.Kind#PRECONDITION_FAILED} when the
   *     condition does not hold
   */
  String write(byte[] body, Optional<String> expected);

  /**
   * The object {@code suffix} appended to this one's name, on the same client (for the {@link
   * ConditionalWriteProbe}); closing it does not close the client.
   */
  ObjectBackend sibling(String suffix);

  /**
   * Deletes the object, whatever its version; a missing object is no error. Only for objects no
   * checkpoint lives in (the probes).
   *
   * @throws BackendException on failure
   */
  void delete();

  /** A version token no object of this store ever has, for a write that must fail 412. */
  String neverAVersion();

  @Override
  void close();

  /**
   * A stored body and its version token.
   *
   * @param body the bytes
   * @param version the ETag or generation of exactly these bytes
   */
  record StoredObject(byte[] body, String version) {}
}
