package io.sf2loki.config;

import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a configuration whose streams would carry more label names than Loki 3 accepts ({@code
 * max_label_names_per_series}, 15 since Loki 3.0, was 30): Loki answers every push of such a stream
 * 400 and its entries would be dropped. Counted for the widest stream the configuration can make:
 * the labels every entry carries ({@code job}, {@code service_name}, {@code environment}, {@code
 * sf_org_id}, {@code source}, {@code event_type}), the operator's {@code sink.loki.labels}
 * (including {@code org} of a multi-org file), the labels the sink adds to some entries ({@code
 * late}), and the most any one event type promotes. {@code service_name} is counted although Loki
 * 3's newest releases exempt it, so the check holds for every 3.x.
 */
final class StreamLabelBudget {

  /** Loki 3's {@code max_label_names_per_series} default. */
  static final int LOKI_MAX_LABEL_NAMES = 15;

  /** The labels every entry carries whatever the configuration. */
  static final List<String> ALWAYS =
      List.of("job", "service_name", "environment", "sf_org_id", "source", "event_type");

  private StreamLabelBudget() {}

  /** Records a problem at {@code sink.loki.labels} when the widest stream is over the limit. */
  static void check(
      ConfigReader root, SinkProvider.Factory sink, Collection<SourceProvider.Factory> sources) {
    if (sink == null) {
      return;
    }
    Set<String> names = new TreeSet<>(ALWAYS);
    names.addAll(sink.labels().keySet());
    names.addAll(sink.addedLabels());
    int promoted = 0;
    for (SourceProvider.Factory source : sources) {
      if (source instanceof PromotedLabels p) {
        promoted = Math.max(promoted, p.mostPromotedPerStream());
      }
    }
    int total = names.size() + promoted;
    if (total > LOKI_MAX_LABEL_NAMES) {
      String path = root.path("sink.loki.labels");
      root.problem(
          "sink.loki.labels",
          path
              + ": streams would carry up to "
              + total
              + " label names ("
              + String.join(", ", names)
              + (promoted > 0 ? ", and " + promoted + " promoted by an event type" : "")
              + "); Loki 3 refuses a stream with more than "
              + LOKI_MAX_LABEL_NAMES
              + " (limits_config.max_label_names_per_series): drop labels from sink.loki.labels"
              + " or promote fewer fields");
    }
  }
}
