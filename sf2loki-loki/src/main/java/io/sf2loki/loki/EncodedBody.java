package io.sf2loki.loki;

import java.util.Optional;

/**
 * A push body ready for the wire.
 *
 * @param bytes the body as sent (compressed when {@code contentEncoding} is present)
 * @param contentType the {@code Content-Type}
 * @param contentEncoding the {@code Content-Encoding}, when compressed
 */
record EncodedBody(byte[] bytes, String contentType, Optional<String> contentEncoding) {}
