package io.sf2loki.daemon.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoint store a soak runs against, as the soak sees it: the configuration each daemon
 * incarnation gets, the stored document, and, where the store can tell, every write with its
 * writer.
 */
sealed interface SoakStore extends AutoCloseable permits FileSoakStore, S3SoakStore {

  /** Reads checkpoint documents. */
  ObjectMapper JSON = new ObjectMapper();

  /** The store types the soak runs. */
  enum Kind {
    FILE,
    S3;

    /** The {@code state.store} name. */
    String type() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** {@code file} or {@code s3}. */
    static Kind parse(String type) {
      return valueOf(type.strip().toUpperCase(Locale.ROOT));
    }
  }

  /**
   * One write that landed.
   *
   * @param writer the incarnation that wrote it, e.g. {@code a-3}
   * @param document the whole document it wrote
   */
  record Write(String writer, Map<String, String> document) {}

  /** Starts the store's backend; shared files go to {@code dir}. */
  static SoakStore open(Kind kind, Path dir) {
    return switch (kind) {
      case FILE -> new FileSoakStore(dir.resolve("state.json"));
      case S3 -> S3SoakStore.start();
    };
  }

  Kind kind();

  /** The {@code state} section of the configuration of incarnation {@code writer}. */
  String stateConfig(String writer);

  /** The document as stored now; empty when there is none. */
  Map<String, String> document();

  /**
   * Every write that landed, in the order it landed, with its writer; empty when the store cannot
   * tell writers apart (a file on one host has no writer of record).
   */
  List<Write> writes();

  @Override
  void close();

  /** Parses a checkpoint document: one flat JSON object of strings. */
  static Map<String, String> parse(byte[] json) {
    try {
      JsonNode doc = JSON.readTree(json);
      Map<String, String> out = new TreeMap<>();
      doc.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable checkpoint document", e);
    }
  }
}
