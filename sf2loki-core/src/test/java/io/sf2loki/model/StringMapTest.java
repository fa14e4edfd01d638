package io.sf2loki.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StringMapTest {

  private static Map<String, String> unsorted() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("source", "eventlogfile");
    m.put("event_type", "Login");
    m.put("job", "sf2loki");
    m.put("Z_upper", "sorts first");
    return m;
  }

  @Test
  void iteratesInTheSameOrderAsATreeMap() {
    StringMap m = StringMap.of(unsorted());

    assertThat(new ArrayList<>(m.keySet()))
        .containsExactlyElementsOf(new TreeMap<>(unsorted()).keySet());
    assertThat(m.keyAt(0)).isEqualTo("Z_upper");
    assertThat(m.valueAt(3)).isEqualTo("eventlogfile");
    List<String> seen = new ArrayList<>();
    m.forEach((k, v) -> seen.add(k + "=" + v));
    assertThat(seen)
        .containsExactly(
            "Z_upper=sorts first", "event_type=Login", "job=sf2loki", "source=eventlogfile");
  }

  @Test
  void pairsFactorySortsAndMatchesTheMapFactory() {
    StringMap pairs =
        StringMap.of(
            "source",
            "eventlogfile",
            "event_type",
            "Login",
            "job",
            "sf2loki",
            "Z_upper",
            "sorts first");

    assertThat(pairs).isEqualTo(StringMap.of(unsorted()));
  }

  @Test
  void equalsAndHashCodeFollowTheMapContractBothWays() {
    StringMap m = StringMap.of(unsorted());
    Map<String, String> hash = new HashMap<>(unsorted());

    assertThat(m).isEqualTo(hash);
    assertThat(hash).isEqualTo(m);
    assertThat(m.hashCode()).isEqualTo(hash.hashCode());
    assertThat(m).isEqualTo(StringMap.of(new TreeMap<>(unsorted())));
    assertThat(m).isNotEqualTo(StringMap.of("job", "sf2loki"));
    assertThat(StringMap.of("a", "b")).isNotEqualTo(StringMap.of("a", "c"));
    assertThat(StringMap.EMPTY).isEqualTo(Map.of()).hasSameHashCodeAs(Map.of());
  }

  @Test
  void printsLikeATreeMap() {
    assertThat(StringMap.of(unsorted())).hasToString(new TreeMap<>(unsorted()).toString());
  }

  @Test
  void anExistingStringMapIsSharedNotCopied() {
    StringMap m = StringMap.of(unsorted());

    assertThat(StringMap.of(m)).isSameAs(m);
    LogEntry a = LogEntry.of(1, m, "a", m, Optional.empty());
    assertThat(a.labels()).isSameAs(m);
    assertThat(a.metadata()).isSameAs(m);
  }

  @Test
  void lookupsFindPresentKeysOnly() {
    StringMap m = StringMap.of(unsorted());

    assertThat(m.get("job")).isEqualTo("sf2loki");
    assertThat(m.get("nope")).isNull();
    assertThat(m.get(42)).isNull();
    assertThat(m.containsKey("event_type")).isTrue();
    assertThat(m.getOrDefault("nope", "d")).isEqualTo("d");
    assertThat(m).containsEntry("source", "eventlogfile").hasSize(4);
  }

  @Test
  void isImmutable() {
    StringMap m = StringMap.of(unsorted());

    assertThatThrownBy(() -> m.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.remove("job")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(m::clear).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.entrySet().iterator().next().setValue("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.replaceAll((k, v) -> v))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(m).isEqualTo(unsorted());
  }

  @Test
  void laterChangesToTheSourceMapDoNotShowThrough() {
    Map<String, String> source = unsorted();
    StringMap m = StringMap.of(source);

    source.put("job", "changed");

    assertThat(m.get("job")).isEqualTo("sf2loki");
  }

  @Test
  void rejectsNullsOddPairsAndDuplicateKeys() {
    Map<String, String> withNull = new HashMap<>();
    withNull.put("k", null);

    assertThatThrownBy(() -> StringMap.of(withNull)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StringMap.of("a")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StringMap.of("a", "1", "a", "2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate key a");
  }

  @Test
  void utf8SizeCountsEveryKeyAndValue() {
    StringMap m = StringMap.of("ü", "✓", "k", "x".repeat(100) + "é");

    assertThat(m.utf8Size())
        .isEqualTo(
            "ü✓k".getBytes(StandardCharsets.UTF_8).length
                + ("x".repeat(100) + "é").getBytes(StandardCharsets.UTF_8).length);
  }
}
