package io.sf2loki.otlp;

import com.github.luben.zstd.Zstd;
import io.sf2loki.otlp.OtlpSinkConfig.Compression;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * Compresses a whole serialised body in one pass, as the configured {@link Compression} says: the
 * body is made once, on the lane's batching thread, and sent as is by every retry.
 */
final class Codecs {

  private Codecs() {}

  /** {@code raw} compressed; {@code level} is the gzip or zstd level (lz4 has none). */
  static byte[] compress(Compression compression, byte[] raw, int level) throws IOException {
    return switch (compression) {
      case NONE -> raw;
      case GZIP -> Gzip.compress(raw, level);
      case ZSTD -> Zstd.compress(raw, level);
      case LZ4 -> lz4Frame(raw);
    };
  }

  /**
   * The LZ4 frame format (what {@code Content-Encoding: lz4} means to the Collector and Loki, whose
   * Go readers take frames only). 64 KiB blocks: the library's default of 4 MiB would allocate two
   * 4 MiB buffers per body.
   */
  private static byte[] lz4Frame(byte[] raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
    try (LZ4FrameOutputStream lz4 =
        new LZ4FrameOutputStream(
            out,
            LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
            raw.length,
            LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
            LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE)) {
      lz4.write(raw);
    }
    return out.toByteArray();
  }
}
