package io.sf2loki.shape;

import io.sf2loki.spi.ConfigSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Binds {@code sources.<src>.transforms}: a list of rule objects with the keys {@code name}, {@code
 * action}, {@code fields}, {@code pattern}, {@code replacement}, {@code match} and {@code
 * event_types}. Every mistake is recorded with the rule's key path ({@code
 * sources.apexlog.transforms.1.pattern ...}); nothing throws.
 */
public final class TransformsConfig {

  private static final Set<String> KEYS =
      Set.of("name", "action", "fields", "pattern", "replacement", "match", "event_types");
  private static final Pattern PY_GROUP = Pattern.compile("\\\\g<([A-Za-z_][A-Za-z0-9_]*|\\d+)>");
  private static final Pattern PY_NUMBER = Pattern.compile("\\\\(\\d{1,2})");
  private static final Pattern JAVA_REF =
      Pattern.compile("\\$(?:(\\d+)|\\{([A-Za-z][A-Za-z0-9]*)})");
  private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?<([A-Za-z][A-Za-z0-9]*)>");

  private TransformsConfig() {}

  /** The rules of {@code section}'s {@code transforms} list, in order. */
  public static List<TransformRule> bind(ConfigSection section) {
    List<TransformRule> rules = new ArrayList<>();
    List<ConfigSection> elements = section.objectList("transforms");
    for (int i = 0; i < elements.size(); i++) {
      bindRule(elements.get(i), i).ifPresent(rules::add);
    }
    return rules;
  }

  private static Optional<TransformRule> bindRule(ConfigSection r, int index) {
    for (String key : r.keys()) {
      if (!KEYS.contains(key)) {
        r.problem(
            key, r.path(key) + " is not a transform key (allowed: " + new TreeSet<>(KEYS) + ")");
      }
    }
    String actionName = r.string("action");
    Optional<TransformRule.Action> action = TransformRule.Action.byName(actionName);
    if (action.isEmpty()) {
      r.problem(
          "action",
          r.path("action")
              + " must be one of hash, mask, drop_field, regex_replace, drop_row (got '"
              + actionName
              + "')");
      return Optional.empty();
    }
    TransformRule.Action a = action.get();
    String name = r.optionalString("name").orElse(a.configName() + "-" + index);
    List<String> fields = r.stringList("fields");
    Map<String, Glob> match = new LinkedHashMap<>();
    r.stringMap("match").forEach((k, v) -> match.put(k, Glob.of(v)));
    checkShape(r, a, fields, match);
    Optional<Pattern> pattern = Optional.empty();
    String replacement = "";
    if (a == TransformRule.Action.REGEX_REPLACE) {
      pattern = compile(r);
      replacement = replacement(r, pattern);
    } else {
      for (String key : List.of("pattern", "replacement")) {
        if (r.isSet(key)) {
          r.problem(key, r.path(key) + " is only allowed with action regex_replace");
        }
      }
    }
    List<Glob> types = r.stringList("event_types").stream().map(Glob::of).toList();
    return Optional.of(new TransformRule(name, a, fields, pattern, replacement, match, types));
  }

  private static void checkShape(
      ConfigSection r, TransformRule.Action a, List<String> fields, Map<String, Glob> match) {
    if (a == TransformRule.Action.DROP_ROW) {
      if (r.isSet("fields")) {
        r.problem("fields", r.path("fields") + " is not allowed with action drop_row (use match)");
      }
      if (match.isEmpty()) {
        r.problem("match", r.path("match") + " must map at least one field to a glob for drop_row");
      }
      return;
    }
    if (fields.isEmpty()) {
      r.problem("fields", r.path("fields") + " must list at least one field for " + a.configName());
    }
    if (r.isSet("match")) {
      r.problem("match", r.path("match") + " is only allowed with action drop_row");
    }
  }

  private static Optional<Pattern> compile(ConfigSection r) {
    Optional<String> text = r.optionalString("pattern");
    if (text.isEmpty()) {
      r.problem("pattern", r.path("pattern") + " is required for regex_replace");
      return Optional.empty();
    }
    try {
      return Optional.of(Pattern.compile(text.get()));
    } catch (PatternSyntaxException e) {
      r.problem(
          "pattern",
          r.path("pattern")
              + " does not compile: "
              + e.getDescription()
              + " near index "
              + e.getIndex());
      return Optional.empty();
    }
  }

  /**
   * The replacement in Java syntax: Python's {@code \1} and {@code \g<name>} become {@code $1} and
   * {@code ${name}}; every group reference must exist in the pattern.
   */
  private static String replacement(ConfigSection r, Optional<Pattern> pattern) {
    String raw = r.string("replacement");
    String java =
        PY_GROUP.matcher(raw).replaceAll(m -> Matcher.quoteReplacement(javaRef(m.group(1))));
    java = PY_NUMBER.matcher(java).replaceAll(m -> Matcher.quoteReplacement("$" + m.group(1)));
    if (pattern.isEmpty()) {
      return java;
    }
    int groups = pattern.get().matcher("").groupCount();
    Set<String> names = new TreeSet<>();
    Matcher named = NAMED_GROUP.matcher(pattern.get().pattern());
    while (named.find()) {
      names.add(named.group(1));
    }
    Matcher ref = JAVA_REF.matcher(java);
    while (ref.find()) {
      boolean ok =
          ref.group(1) != null
              ? Integer.parseInt(ref.group(1)) <= groups
              : names.contains(ref.group(2));
      if (!ok) {
        r.problem(
            "replacement",
            r.path("replacement")
                + " refers to group "
                + ref.group()
                + ", which the pattern does not define");
      }
    }
    String rest = JAVA_REF.matcher(java.replace("\\\\", "").replace("\\$", "")).replaceAll("");
    if (rest.contains("$") || rest.endsWith("\\")) {
      r.problem(
          "replacement",
          r.path("replacement")
              + " has a stray '$' or a trailing backslash (write \\$ for a literal dollar)");
    }
    return java;
  }

  private static String javaRef(String group) {
    return group.chars().allMatch(Character::isDigit) ? "$" + group : "${" + group + "}";
  }
}
