package io.sf2loki.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LabelSetMemoTest {

  private final LabelSetMemo<String> memo = new LabelSetMemo<>();
  private final AtomicInteger computed = new AtomicInteger();

  private String compute(StringMap labels) {
    computed.incrementAndGet();
    return labels.get("source");
  }

  @Test
  void aLabelSetIsComputedOnceAndEqualSetsShareTheValue() {
    assertThat(memo.get(StringMap.of("source", "apexlog"), this::compute)).isEqualTo("apexlog");
    assertThat(memo.get(StringMap.of("source", "apexlog"), this::compute)).isEqualTo("apexlog");
    assertThat(computed).hasValue(1);
  }

  @Test
  void pastTheCapValuesAreComputedEachTimeAndNothingMoreIsKept() {
    for (int i = 0; i < LabelSetMemo.MAX_SETS + 10; i++) {
      memo.get(StringMap.of("source", "s" + i), this::compute);
    }
    assertThat(memo.size()).isEqualTo(LabelSetMemo.MAX_SETS);
    StringMap late = StringMap.of("source", "late");
    memo.get(late, this::compute);
    memo.get(late, this::compute);
    assertThat(computed).hasValue(LabelSetMemo.MAX_SETS + 12);
  }
}
