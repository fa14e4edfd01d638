package io.sf2loki.shape;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies compiled {@link TransformRule}s to a payload. Immutable and thread-safe.
 *
 * <p>Absent and null values are left alone by every field action; {@code drop_row} reads an absent
 * field as {@code ""}.
 */
public final class Transforms {

  private static final Pattern IPV4 =
      Pattern.compile(
          "((?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\."
              + "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d))\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");

  private final List<TransformRule> rules;
  private final byte[] salt;

  /**
   * @param rules the rules in configuration order
   * @param salt the deployment's {@code transform_salt}; empty means unsalted hashes
   */
  public Transforms(List<TransformRule> rules, String salt) {
    this.rules = List.copyOf(rules);
    this.salt = salt.getBytes(StandardCharsets.UTF_8);
  }

  /** No rules at all. */
  public static Transforms none() {
    return new Transforms(List.of(), "");
  }

  /** The rules, in order. */
  public List<TransformRule> rules() {
    return rules;
  }

  /**
   * Rewrites {@code payload} in place with the rules that apply to {@code eventType}.
   *
   * @return the name of the {@code drop_row} rule that dropped the row, if one did (the payload is
   *     then partly transformed and must not be shipped)
   */
  public Optional<String> apply(String eventType, Map<String, Object> payload) {
    for (TransformRule rule : rules) {
      if (!rule.appliesTo(eventType)) {
        continue;
      }
      if (rule.action() == TransformRule.Action.DROP_ROW) {
        if (matchesAll(rule, payload)) {
          return Optional.of(rule.name());
        }
        continue;
      }
      for (String field : rule.fields()) {
        rewrite(rule, field, payload);
      }
    }
    return Optional.empty();
  }

  /** True when some rule applies to {@code eventType}: {@link #apply} may change its payloads. */
  public boolean anyApplyTo(String eventType) {
    for (TransformRule rule : rules) {
      if (rule.appliesTo(eventType)) {
        return true;
      }
    }
    return false;
  }

  /** True when some rule for {@code eventType} removes {@code field} outright. */
  public boolean dropsField(String eventType, String field) {
    return rules.stream()
        .anyMatch(
            r ->
                r.action() == TransformRule.Action.DROP_FIELD
                    && r.appliesTo(eventType)
                    && r.fields().contains(field));
  }

  private void rewrite(TransformRule rule, String field, Map<String, Object> payload) {
    Object value = payload.get(field);
    if (value == null) {
      return;
    }
    String text = CanonicalJson.stringForm(value);
    switch (rule.action()) {
      case HASH -> payload.put(field, hash(text));
      case MASK -> payload.put(field, mask(text));
      case DROP_FIELD -> payload.remove(field);
      case REGEX_REPLACE ->
          payload.put(
              field, rule.pattern().orElseThrow().matcher(text).replaceAll(rule.replacement()));
      case DROP_ROW -> throw new IllegalStateException("drop_row has no fields");
    }
  }

  private static boolean matchesAll(TransformRule rule, Map<String, Object> payload) {
    for (Map.Entry<String, Glob> m : rule.match().entrySet()) {
      Object v = payload.get(m.getKey());
      if (!m.getValue().matches(v == null ? "" : CanonicalJson.stringForm(v))) {
        return false;
      }
    }
    return true;
  }

  /** The first 16 lowercase hex characters of SHA-256(salt + value). */
  String hash(String value) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      byte[] digest = sha.digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }

  /** {@code ***@domain}, {@code a.b.c.x} for a strict dotted quad, else {@code ***}. */
  static String mask(String value) {
    int at = value.lastIndexOf('@');
    if (at >= 0) {
      return "***@" + value.substring(at + 1);
    }
    Matcher ip = IPV4.matcher(value);
    if (ip.matches()) {
      return ip.group(1) + ".x";
    }
    return "***";
  }
}
