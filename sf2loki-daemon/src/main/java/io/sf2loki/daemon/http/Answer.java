package io.sf2loki.daemon.http;

/**
 * The answer of one probe ({@link Liveness}, {@link Readiness}).
 *
 * @param status HTTP status
 * @param body plain-text body
 */
public record Answer(int status, String body) {}
