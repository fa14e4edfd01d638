package io.sf2loki.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Loki 3 refuses a stream with more than 15 label names: config check counts them first. */
class StreamLabelBudgetTest {

  final ConfigReader root = ConfigReader.of(ConfigFactory.empty());

  record FakeSink(Map<String, String> labels, Set<String> addedLabels)
      implements SinkProvider.Factory {
    @Override
    public Sink create(SinkEnvironment environment) {
      throw new UnsupportedOperationException();
    }
  }

  /** A source whose widest event type promotes {@code widest} of its labels. */
  record FakeSource(Set<String> promotedLabels, int widest)
      implements SourceProvider.Factory, PromotedLabels {
    @Override
    public List<Source> create(SourceEnvironment environment) {
      return List.of();
    }

    @Override
    public int mostPromotedPerStream() {
      return widest;
    }
  }

  static Set<String> names(int n) {
    return IntStream.range(0, n).mapToObj(i -> "f" + i).collect(Collectors.toSet());
  }

  @Test
  void fifteenLabelNamesPass() {
    // job, service_name, environment, sf_org_id, source, event_type, org, late + 7 promoted
    StreamLabelBudget.check(
        root,
        new FakeSink(Map.of("org", "prod"), Set.of("late")),
        Map.of("eventlogfile", new FakeSource(names(7), 7)));

    assertThat(root.problems()).isEmpty();
  }

  @Test
  void sixteenAreRefusedAtTheSourceNamingTheLabels() {
    StreamLabelBudget.check(
        root,
        new FakeSink(Map.of("org", "prod"), Set.of("late")),
        Map.of("eventlogfile", new FakeSource(names(8), 8)));

    assertThat(root.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sources.eventlogfile");
              assertThat(p.message())
                  .isEqualTo(
                      "sources.eventlogfile: an event type promotes 8 labels, so its streams would"
                          + " carry 16 label names (environment, event_type, job, late, org,"
                          + " service_name, sf_org_id, source and the promoted ones); Loki 3"
                          + " refuses a stream with more than 15"
                          + " (limits_config.max_label_names_per_series): promote at most 7"
                          + " fields per event type");
            });
  }

  @Test
  void onlyTheWidestEventTypesPromotedLabelsCount() {
    // 12 promoted in all, at most 7 on one event type's streams
    StreamLabelBudget.check(
        root,
        new FakeSink(Map.of("org", "prod"), Set.of("late")),
        Map.of("eventlogfile", new FakeSource(names(12), 7)));

    assertThat(root.problems()).isEmpty();
  }

  @Test
  void anOperatorLabelThatIsAlwaysThereCountsOnce() {
    StreamLabelBudget.check(
        root,
        new FakeSink(Map.of("service_name", "salesforce", "job", "x"), Set.of()),
        Map.of("eventlogfile", new FakeSource(names(9), 9)));

    assertThat(root.problems()).isEmpty(); // 6 + 9
  }
}
