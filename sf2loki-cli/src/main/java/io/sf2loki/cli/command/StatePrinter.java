package io.sf2loki.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.model.CheckpointToken;
import java.io.PrintWriter;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.Map;
import java.util.TreeMap;

/** Renders {@code state show}: checkpoints sorted by key, the fence epoch apart. */
final class StatePrinter {

  private final PrintWriter out;

  StatePrinter(PrintWriter out) {
    this.out = out;
  }

  void show(Map<String, String> document, String glob, boolean json) {
    PathMatcher matcher =
        glob == null ? null : FileSystems.getDefault().getPathMatcher("glob:" + glob);
    TreeMap<String, String> shown = new TreeMap<>();
    document.forEach(
        (k, v) -> {
          if (!CheckpointToken.isReserved(k)
              && (matcher == null || matcher.matches(Path.of(k.replace('/', '\u2215'))))) {
            shown.put(k, v);
          }
        });
    String epoch = document.get(CheckpointToken.RESERVED_EPOCH_KEY);
    if (json) {
      ObjectNode root = StateCommand.jsonObject();
      if (epoch == null) {
        root.putNull("fence_epoch");
      } else {
        root.put("fence_epoch", epoch);
      }
      ObjectNode checkpoints = root.putObject("checkpoints");
      shown.forEach(checkpoints::put);
      out.println(StateCommand.render(root));
      return;
    }
    shown.forEach((k, v) -> out.println(k + "\t" + v));
    if (shown.isEmpty()) {
      out.println("(no checkpoints match)");
    } else {
      out.println();
      out.println(
          shown.size() + " checkpoint(s)" + (glob == null ? "" : " matching '" + glob + "'"));
    }
    out.println("fence epoch: " + (epoch == null ? "none" : epoch));
  }
}
