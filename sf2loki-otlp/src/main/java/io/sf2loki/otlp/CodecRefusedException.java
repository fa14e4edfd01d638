package io.sf2loki.otlp;

import io.sf2loki.otlp.OtlpSinkConfig.Compression;
import io.sf2loki.spi.RetryableSinkException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The endpoint does not decompress the configured {@code sink.otlp.compression} (zstd or lz4): a
 * Loki before 3.6, or a receiver that refuses the encoding. Not a bad record, so the batch is
 * neither bisected nor dropped: it is kept and retried like an authentication failure, since only
 * the operator can fix it ({@code sink.otlp.compression = gzip}).
 */
final class CodecRefusedException extends RetryableSinkException {

  private static final long serialVersionUID = 1L;

  /*
   * What a 400 to a zstd or lz4 body says when the codec is the problem: Loki 3.6 and the
   * Collector name the encoding ("unsupported content encoding ..."); a Loki before 3.6 reads only
   * gzip and hands the compressed bytes to its protobuf or JSON parser, whose errors say "proto:",
   * "unexpected EOF", a wire type, or a JSON reader's complaint. The sink's bodies always parse
   * once decompressed, so a parse error can only mean the body was not decompressed.
   */
  private static final Pattern REFUSAL =
      Pattern.compile(
          "content[ -]encoding|proto:|unexpected eof|wire ?type|readobjectcb|invalid character",
          Pattern.CASE_INSENSITIVE);

  CodecRefusedException(String target, Compression compression, String answer) {
    super(
        "the OTLP endpoint "
            + target
            + " does not accept "
            + compression.configName()
            + " request bodies (it answered 400"
            + (answer.isEmpty() ? "" : ": " + answer)
            + "): use gzip (sink.otlp.compression = gzip); "
            + hint(compression),
        400,
        null,
        null);
  }

  /** Whether a 400 with {@code text} to a body compressed with {@code compression} refuses it. */
  static boolean refuses(Compression compression, String text) {
    return compression.optional() && REFUSAL.matcher(text.toLowerCase(Locale.ROOT)).find();
  }

  /** The endpoint-independent hint, for doctor and the sink alike. */
  static String hint(Compression compression) {
    return "Loki accepts "
        + compression.configName()
        + " from 3.6.0, the OpenTelemetry Collector's otlp receiver does";
  }
}
