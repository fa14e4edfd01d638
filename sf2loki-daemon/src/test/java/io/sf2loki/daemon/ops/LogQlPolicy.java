package io.sf2loki.daemon.ops;

import io.sf2loki.model.StreamLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a LogQL expression of the pack may name: stream labels sf2loki sets ({@link
 * StreamLabels#ALLOWLIST}), the structured metadata it always sets ({@code level}, and {@code
 * event_time} on re-timestamped entries), and fields of the selected records that Salesforce fills
 * ({@link SalesforceFields}), extracted from the line by a parser stage.
 */
final class LogQlPolicy {

  /** Structured metadata sf2loki sets whatever the configuration. */
  static final Set<String> METADATA = Set.of("level", "event_time");

  /** Loki's own labels a pipeline may test. */
  static final Set<String> LOKI_LABELS = Set.of("__error__", "__error_details__");

  private static final Pattern LITERAL_ALTERNATIVES =
      Pattern.compile("[A-Za-z0-9_]+(\\|[A-Za-z0-9_]+)*");
  private static final Pattern DURATION = Pattern.compile("(\\d+)([smhdw])");

  private LogQlPolicy() {}

  /** Every rule {@code parsed} breaks, with the expression's id; empty when it keeps them all. */
  static List<String> violations(LogQl.Parsed parsed) {
    List<String> out = new ArrayList<>();
    parsed.errors().forEach(e -> out.add("does not parse at " + e.at() + ": …" + e.near() + "…"));
    if (parsed.selectors().isEmpty()) {
      out.add("has no stream selector");
    }
    Set<SalesforceFields.Type> types = new HashSet<>();
    for (List<LogQl.Matcher> selector : parsed.selectors()) {
      if (selector.stream().noneMatch(m -> m.label().equals("job") && !m.value().isEmpty())) {
        out.add("selector " + selector + " names no job");
      }
      for (LogQl.Matcher m : selector) {
        if (!StreamLabels.ALLOWLIST.contains(m.label())) {
          out.add("selects on " + m.label() + ", not a stream label sf2loki sets");
        }
        if (m.label().equals("event_type")) {
          types.addAll(eventTypes(m, out));
        }
      }
    }
    Set<String> known = new HashSet<>(StreamLabels.ALLOWLIST);
    known.addAll(METADATA);
    known.addAll(LOKI_LABELS);
    Set<String> fields = commonFields(types);
    if (!parsed.parsers().isEmpty() && types.isEmpty()) {
      out.add("parses lines without selecting an event_type, so its fields cannot be checked");
    }
    for (LogQl.Extracted e : parsed.extracted()) {
      known.add(e.label());
      if (!fields.contains(e.field())) {
        out.add("extracts " + e.field() + ", which Salesforce does not fill in " + names(types));
      }
    }
    boolean extractsAll = parsed.parsers().size() > 0 && parsed.extracted().isEmpty();
    if (extractsAll) {
      known.addAll(fields);
    }
    for (String name : parsed.referenced()) {
      if (!known.contains(name)) {
        out.add("reads " + name + ": no label, metadata or extracted field of " + names(types));
      }
    }
    return out.stream().map(v -> parsed.id() + " " + v).toList();
  }

  /**
   * The violations of an event-time rule beyond {@link #violations}: its range plus offset must
   * reach back past the time its slowest source's entries take to arrive, or it never sees them.
   */
  static List<String> eventTimeViolations(LogQl.Parsed parsed) {
    List<String> out = new ArrayList<>();
    Duration arrival = Duration.ZERO;
    for (List<LogQl.Matcher> selector : parsed.selectors()) {
      for (LogQl.Matcher m : selector) {
        if (m.label().equals("event_type")) {
          for (SalesforceFields.Type t : eventTypes(m, new ArrayList<>())) {
            arrival = t.arrival().compareTo(arrival) > 0 ? t.arrival() : arrival;
          }
        }
      }
    }
    Duration offset =
        parsed.offsets().stream()
            .map(LogQlPolicy::duration)
            .min(Duration::compareTo)
            .orElse(Duration.ZERO);
    if (parsed.offsets().size() < parsed.ranges().size()) {
      offset = Duration.ZERO; // a range without an offset looks at "now"
    }
    if (offset.compareTo(arrival) < 0) {
      out.add(
          parsed.id()
              + " looks back offset "
              + offset
              + ", but its entries arrive up to "
              + arrival
              + " after their event time");
    }
    return out;
  }

  private static Set<SalesforceFields.Type> eventTypes(LogQl.Matcher m, List<String> out) {
    Set<SalesforceFields.Type> types = new HashSet<>();
    if (!(m.op().equals("=") || m.op().equals("=~"))
        || !LITERAL_ALTERNATIVES.matcher(m.value()).matches()) {
      out.add("event_type " + m.op() + " \"" + m.value() + "\" is not a list of event types");
      return types;
    }
    for (String name : m.value().split("\\|")) {
      SalesforceFields.of(name)
          .ifPresentOrElse(
              types::add, () -> out.add("selects event_type " + name + ", unknown to the pack"));
    }
    return types;
  }

  private static Set<String> commonFields(Set<SalesforceFields.Type> types) {
    Set<String> common = null;
    for (SalesforceFields.Type t : types) {
      if (common == null) {
        common = new HashSet<>(t.fields());
      } else {
        common.retainAll(t.fields());
      }
    }
    return common == null ? Set.of() : common;
  }

  private static List<String> names(Set<SalesforceFields.Type> types) {
    return types.stream().map(SalesforceFields.Type::eventType).sorted().toList();
  }

  static Duration duration(String text) {
    var m = DURATION.matcher(text);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
              });
      end = m.end();
    }
    if (end != text.length()) {
      throw new IllegalArgumentException("not a LogQL duration: " + text);
    }
    return total;
  }
}
