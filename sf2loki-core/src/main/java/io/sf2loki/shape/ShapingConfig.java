package io.sf2loki.shape;

import io.sf2loki.model.StreamLabels;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Secret;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shaping keys every source section shares: {@code transforms}, {@code
 * structured_metadata_fields} and {@code max_label_values}, plus the deployment-wide {@code
 * sources.transform_salt}. Per-type settings (promoted labels, a metadata override, a sample rate)
 * live in the source's own entries and are checked with {@link #checkLabels} and {@link #rate}.
 *
 * @param transforms the compiled rules with the salt
 * @param metadataFields top-level fields copied into structured metadata for every type
 * @param maxLabelValues the cardinality bound of each promoted label
 */
public record ShapingConfig(
    Transforms transforms, List<String> metadataFields, int maxLabelValues) {

  private static final Logger LOG = LoggerFactory.getLogger(ShapingConfig.class);

  /** Labels sources, the pipeline and the deployment own; never promoted from payloads. */
  public static final Set<String> RESERVED_LABELS = StreamLabels.RESERVED;

  public ShapingConfig {
    Objects.requireNonNull(transforms, "transforms");
    metadataFields = List.copyOf(metadataFields);
  }

  /** No transforms, no metadata fields, the default label bound. */
  public static ShapingConfig defaults() {
    return new ShapingConfig(Transforms.none(), List.of(), 100);
  }

  /** Binds the shared keys of {@code section} ({@code sources.<type>}). */
  public static ShapingConfig bind(ConfigSection section) {
    List<TransformRule> rules = TransformsConfig.bind(section);
    Optional<Secret> salt = section.root().section("sources").optionalSecret("transform_salt");
    if (salt.isEmpty() && rules.stream().anyMatch(r -> r.action() == TransformRule.Action.HASH)) {
      LOG.warn(
          "{} has hash rules but sources.transform_salt is unset: hashes of guessable values (user"
              + " ids, IPs) can be reversed by brute force",
          section.path("transforms"));
    }
    List<String> metadata = section.stringList("structured_metadata_fields");
    int maxLabelValues = section.intInRange("max_label_values", 1, 10_000);
    return new ShapingConfig(
        new Transforms(rules, salt.map(Secret::reveal).orElse("")), metadata, maxLabelValues);
  }

  /**
   * Checks promoted label names given at {@code r.path(key)}: identifier-shaped, not reserved, and
   * not removed by a {@code drop_field} rule for {@code eventType}.
   */
  public void checkLabels(ConfigSection r, String key, String eventType, List<String> labels) {
    for (String label : labels) {
      if (!StreamLabels.isValidName(label)) {
        r.problem(
            key,
            r.path(key)
                + ": '"
                + label
                + "' is not a valid label name ("
                + StreamLabels.NAME_PATTERN
                + ")");
      } else if (RESERVED_LABELS.contains(label)) {
        r.problem(key, r.path(key) + ": '" + label + "' is reserved and cannot be promoted");
      } else if (transforms.dropsField(eventType, label)) {
        r.problem(
            key,
            r.path(key)
                + ": '"
                + label
                + "' is removed by a drop_field transform and cannot be a label");
      }
    }
  }

  /** A sample rate in (0, 1] at {@code key}; unset is 1.0. */
  public static double rate(ConfigSection r, String key) {
    Optional<String> text = r.optionalString(key);
    if (text.isEmpty()) {
      return 1.0;
    }
    try {
      double rate = Double.parseDouble(text.get());
      if (rate > 0 && rate <= 1) {
        return rate;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    r.problem(
        key, r.path(key) + " (" + text.get() + ") must be a number greater than 0 and at most 1");
    return 1.0;
  }
}
