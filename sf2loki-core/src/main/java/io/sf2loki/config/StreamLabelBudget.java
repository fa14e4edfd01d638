package io.sf2loki.config;

import io.sf2loki.shape.PromotedLabels;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import java.util.List;
import java.util.Map;
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

  /**
   * Records a problem at {@code sources.<type>} for each source whose widest event type's streams
   * would be over the limit. Only promotion can take a stream there (the operator's labels are a
   * handful of allowlisted names), so the problem names the source, which is also where an org of a
   * multi-org file sets its own.
   */
  static void check(
      ConfigReader root, SinkProvider.Factory sink, Map<String, SourceProvider.Factory> sources) {
    if (sink == null) {
      return;
    }
    Set<String> names = new TreeSet<>(ALWAYS);
    names.addAll(sink.labels().keySet());
    names.addAll(sink.addedLabels());
    sources.forEach(
        (type, source) -> {
          int promoted = source instanceof PromotedLabels p ? p.mostPromotedPerStream() : 0;
          int total = names.size() + promoted;
          if (total > LOKI_MAX_LABEL_NAMES) {
            String key = "sources." + type;
            root.problem(
                key,
                root.path(key)
                    + ": an event type promotes "
                    + promoted
                    + " labels, so its streams would carry "
                    + total
                    + " label names ("
                    + String.join(", ", names)
                    + " and the promoted ones); Loki 3 refuses a stream with more than "
                    + LOKI_MAX_LABEL_NAMES
                    + " (limits_config.max_label_names_per_series): promote at most "
                    + (LOKI_MAX_LABEL_NAMES - names.size())
                    + " fields per event type");
          }
        });
  }
}
