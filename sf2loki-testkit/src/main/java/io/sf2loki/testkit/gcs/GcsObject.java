package io.sf2loki.testkit.gcs;

/**
 * One stored object generation.
 *
 * @param bucket the bucket
 * @param name the object name
 * @param data the content
 * @param generation the generation (unique per write)
 * @param contentType the content type sent by the writer
 */
public record GcsObject(
    String bucket, String name, byte[] data, long generation, String contentType) {}
