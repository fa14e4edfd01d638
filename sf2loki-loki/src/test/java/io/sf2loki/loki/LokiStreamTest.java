package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.LogEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LokiStreamTest {

  @Test
  void selectorSortsNamesAndEscapesValues() {
    String s = LokiStream.selector(Map.of("b", "x\"y", "a", "back\\slash\nnl"));

    assertThat(s).isEqualTo("{a=\"back\\\\slash\\nnl\",b=\"x\\\"y\"}");
  }

  @Test
  void emptyLabelSetIsEmptyBraces() {
    assertThat(LokiStream.selector(Map.of())).isEqualTo("{}");
  }

  @Test
  void groupingKeepsEnqueueOrderForEqualTimestamps() {
    LogEntry a = LogEntry.of(5, Map.of("s", "1"), "a", Map.of(), Optional.empty());
    LogEntry b = LogEntry.of(5, Map.of("s", "1"), "b", Map.of(), Optional.empty());
    LogEntry c = LogEntry.of(1, Map.of("s", "1"), "c", Map.of(), Optional.empty());
    LogEntry other = LogEntry.of(9, Map.of("s", "2"), "o", Map.of(), Optional.empty());

    List<LokiStream> streams = LokiStream.group(List.of(a, other, b, c));

    assertThat(streams).hasSize(2);
    assertThat(streams.get(0).entries()).containsExactly(c, a, b);
    assertThat(streams.get(1).entries()).containsExactly(other);
  }
}
