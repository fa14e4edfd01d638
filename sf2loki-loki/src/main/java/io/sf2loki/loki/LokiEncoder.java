package io.sf2loki.loki;

import java.io.IOException;
import java.util.List;

/** Serialises streams into a push body; stateless and thread-safe. */
sealed interface LokiEncoder permits ProtobufSnappyEncoder, JsonEncoder {

  /** Encodes {@code streams} in order. */
  EncodedBody encode(List<LokiStream> streams) throws IOException;

  /** The encoder a configuration selects. */
  static LokiEncoder of(LokiSinkConfig.Encoding encoding, boolean gzip) {
    return encoding == LokiSinkConfig.Encoding.PROTOBUF
        ? new ProtobufSnappyEncoder()
        : new JsonEncoder(gzip);
  }
}
