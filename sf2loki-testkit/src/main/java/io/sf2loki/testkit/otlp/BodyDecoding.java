package io.sf2loki.testkit.otlp;

import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;

/**
 * How {@link FakeOtlpLogs} undoes a request's {@code Content-Encoding}, with readers of its own
 * (the JDK's gzip, aircompressor's pure-Java zstd, commons-compress's LZ4 frame reader), none of
 * them the library the sink compresses with.
 */
final class BodyDecoding {

  /** An encoding this receiver does not accept: answered 400 with {@link #getMessage()}. */
  static final class UnsupportedEncodingException extends IOException {
    private static final long serialVersionUID = 1L;

    UnsupportedEncodingException(String message) {
      super(message);
    }
  }

  private final boolean gzipOnly;

  /**
   * @param gzipOnly decode gzip only, as a Loki before 3.6 does: any other encoding is not decoded,
   *     the body is parsed as it came
   */
  BodyDecoding(boolean gzipOnly) {
    this.gzipOnly = gzipOnly;
  }

  /** The body as the sender serialised it. */
  byte[] decode(String contentEncoding, byte[] body) throws IOException {
    String encoding =
        contentEncoding == null ? "" : contentEncoding.strip().toLowerCase(Locale.ROOT);
    if (encoding.isEmpty() || encoding.equals("identity")) {
      return body;
    }
    if (gzipOnly && !encoding.equals("gzip")) {
      return body; // Loki < 3.6 reads only gzip and hands anything else to the parser as is
    }
    try (InputStream in = reader(encoding, new ByteArrayInputStream(body))) {
      return in.readAllBytes();
    }
  }

  private static InputStream reader(String encoding, InputStream raw) throws IOException {
    return switch (encoding) {
      case "gzip" -> new GZIPInputStream(raw);
      case "zstd" -> new ZstdInputStream(raw);
      case "lz4" -> new FramedLZ4CompressorInputStream(raw);
      default ->
          // Loki 3.6's text (pkg/loghttp/push/otlp.go)
          throw new UnsupportedEncodingException(
              "unsupported content encoding "
                  + encoding
                  + ": only gzip, lz4 and zstd are supported");
    };
  }
}
