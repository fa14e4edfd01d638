package io.sf2loki.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.model.CheckpointToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads a document written by {@code state export}: a flat JSON object of strings. */
final class ExportedDocument {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ExportedDocument() {}

  static Map<String, String> read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new CommandFailedException(
          "cannot read " + file + ": " + e.getClass().getSimpleName() + " (" + firstLine(e) + ")");
    }
    if (root == null || !root.isObject()) {
      throw new CommandFailedException(file + " is not a checkpoint document (a flat JSON object)");
    }
    Map<String, String> doc = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!e.getValue().isTextual()) {
        throw new CommandFailedException(
            file + ": value of '" + e.getKey() + "' is not a string; not a checkpoint document");
      }
      doc.put(e.getKey(), e.getValue().asText());
    }
    String epoch = doc.get(CheckpointToken.RESERVED_EPOCH_KEY);
    if (epoch != null && !epoch.matches("\\d{1,18}")) {
      throw new CommandFailedException(
          file
              + ": "
              + CheckpointToken.RESERVED_EPOCH_KEY
              + " must be an integer (got '"
              + epoch
              + "')");
    }
    return doc;
  }

  private static String firstLine(IOException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
