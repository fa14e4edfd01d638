package io.sf2loki.shape;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One compiled PII rule of {@code sources.<src>.transforms}. Rules apply in list order to the
 * top-level fields of a payload, before sampling, label promotion, structured metadata and
 * timestamp extraction.
 *
 * @param name the rule's {@code name}, or {@code <action>-<index>}; the {@code rule} attribute of
 *     {@code sf2loki_rows_filtered}
 * @param action what the rule does
 * @param fields the fields it rewrites (empty for {@link Action#DROP_ROW})
 * @param pattern the {@code regex_replace} pattern
 * @param replacement the {@code regex_replace} replacement, in Java syntax ({@code $1}, {@code
 *     ${name}})
 * @param match the {@code drop_row} globs by field: the row is dropped when every glob matches
 * @param eventTypes globs of the event types the rule applies to; empty means every type
 */
public record TransformRule(
    String name,
    Action action,
    List<String> fields,
    Optional<Pattern> pattern,
    String replacement,
    Map<String, Glob> match,
    List<Glob> eventTypes) {

  /** The five transform actions. */
  public enum Action {
    /** Replace the value by the first 16 hex characters of SHA-256(salt + value). */
    HASH("hash"),
    /** Keep the e-mail domain or the IPv4 /24, otherwise {@code ***}. */
    MASK("mask"),
    /** Remove the field. */
    DROP_FIELD("drop_field"),
    /** Regex substitution on the value's string form. */
    REGEX_REPLACE("regex_replace"),
    /** Drop the whole row when every {@code match} glob matches. */
    DROP_ROW("drop_row");

    private final String configName;

    Action(String configName) {
      this.configName = configName;
    }

    /** The name used in configuration. */
    public String configName() {
      return configName;
    }

    /** The action called {@code name} in configuration. */
    public static Optional<Action> byName(String name) {
      for (Action a : values()) {
        if (a.configName.equals(name)) {
          return Optional.of(a);
        }
      }
      return Optional.empty();
    }
  }

  public TransformRule {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(action, "action");
    fields = List.copyOf(fields);
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(replacement, "replacement");
    match = Map.copyOf(match);
    eventTypes = List.copyOf(eventTypes);
  }

  /** True when the rule applies to {@code eventType}. */
  public boolean appliesTo(String eventType) {
    return eventTypes.isEmpty() || eventTypes.stream().anyMatch(g -> g.matches(eventType));
  }
}
