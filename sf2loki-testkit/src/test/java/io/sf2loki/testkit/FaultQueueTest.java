package io.sf2loki.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FaultQueueTest {

  record Scripted(String target, int uses) {}

  private final FaultQueue<Scripted> queue = new FaultQueue<>(Scripted::uses);

  @Test
  void aRequestTakesTheFirstFaultAimedAtItBehindOthers() {
    Scripted upload = new Scripted("upload", 1);
    Scripted metadata = new Scripted("metadata", 1);
    queue.add(upload);
    queue.add(metadata);

    assertThat(queue.take(f -> f.target().equals("metadata"))).contains(metadata);
    assertThat(queue.take(f -> f.target().equals("metadata"))).isEmpty();
    assertThat(queue.take(f -> f.target().equals("upload"))).contains(upload);
  }

  @Test
  void aFaultStrikesItsNumberOfUsesThenIsSpent() {
    Scripted twice = new Scripted("push", 2);
    queue.add(twice);

    assertThat(queue.pendingUses()).isEqualTo(2);
    assertThat(queue.take(f -> true)).contains(twice);
    assertThat(queue.take(f -> true)).contains(twice);
    assertThat(queue.take(f -> true)).isEmpty();
    assertThat(queue.pendingUses()).isZero();
  }

  @Test
  void faultsForTheSameTargetStrikeInTheOrderQueued() {
    Scripted first = new Scripted("push", 1);
    Scripted second = new Scripted("push", 1);
    queue.add(first);
    queue.add(second);

    assertThat(queue.take(f -> true)).containsSame(first);
    assertThat(queue.take(f -> true)).containsSame(second);
  }

  @Test
  void aFaultThatAppliesToNoRequestIsRefused() {
    assertThatThrownBy(() -> queue.add(new Scripted("push", 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one request");
  }

  @Test
  void clearForgetsEveryFault() {
    queue.add(new Scripted("push", 3));

    queue.clear();

    assertThat(queue.pendingUses()).isZero();
    assertThat(queue.take(f -> true)).isEmpty();
  }
}
