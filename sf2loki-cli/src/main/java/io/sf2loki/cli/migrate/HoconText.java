package io.sf2loki.cli.migrate;

import com.typesafe.config.ConfigUtil;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The converted tree as HOCON text. Python interpolates {@code ${VAR}} inside any string value;
 * HOCON does not substitute inside quotes, so such a string becomes a concatenation ({@code
 * "sf2loki-"${REPLICA_ID}}). Forms Python leaves literal ({@code ${X:-d}}, {@code $X}) stay quoted
 * text, as there.
 */
final class HoconText {

  private static final Pattern PYTHON_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern BARE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private final StringBuilder out = new StringBuilder();

  private HoconText() {}

  /** The tree's text; nested maps are objects, empty objects are left out. */
  static String render(Map<String, Object> tree) {
    HoconText text = new HoconText();
    text.members(tree, 0);
    return text.out.toString();
  }

  private void members(Map<String, Object> map, int depth) {
    for (Map.Entry<String, Object> member : map.entrySet()) {
      if (member.getValue() instanceof Map<?, ?> nested && isEmpty(nested)) {
        continue;
      }
      indent(depth);
      out.append(key(member.getKey()));
      if (member.getValue() instanceof Map<?, ?>) {
        out.append(' ');
      } else {
        out.append(" = ");
      }
      value(member.getValue(), depth);
      out.append('\n');
    }
  }

  private void value(Object value, int depth) {
    if (value instanceof Map<?, ?> map) {
      out.append("{\n");
      members(asTree(map), depth + 1);
      indent(depth);
      out.append('}');
    } else if (value instanceof List<?> list) {
      list(list, depth);
    } else if (value instanceof String text) {
      out.append(string(text));
    } else {
      out.append(value); // Boolean or Number
    }
  }

  private void list(List<?> list, int depth) {
    boolean scalars = list.stream().noneMatch(e -> e instanceof Map<?, ?> || e instanceof List<?>);
    if (scalars) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "" : ", ");
        value(list.get(i), depth);
      }
      out.append(']');
      return;
    }
    out.append("[\n");
    for (int i = 0; i < list.size(); i++) {
      indent(depth + 1);
      value(list.get(i), depth + 1);
      out.append(i + 1 < list.size() ? ",\n" : "\n");
    }
    indent(depth);
    out.append(']');
  }

  private static String string(String text) {
    Matcher variable = PYTHON_VARIABLE.matcher(text);
    StringBuilder concatenation = new StringBuilder();
    int from = 0;
    while (variable.find()) {
      if (variable.start() > from) {
        concatenation.append(ConfigUtil.quoteString(text.substring(from, variable.start())));
      }
      concatenation.append("${").append(variable.group(1)).append('}');
      from = variable.end();
    }
    if (from < text.length() || from == 0) {
      concatenation.append(ConfigUtil.quoteString(text.substring(from)));
    }
    return concatenation.toString();
  }

  private static String key(String key) {
    // "include" is a HOCON keyword: unquoted it starts an include statement.
    return BARE_KEY.matcher(key).matches() && !key.equals("include")
        ? key
        : ConfigUtil.quoteString(key);
  }

  private void indent(int depth) {
    out.append("  ".repeat(depth));
  }

  private static boolean isEmpty(Map<?, ?> map) {
    return map.values().stream().allMatch(v -> v instanceof Map<?, ?> m && isEmpty(m));
  }

  private static Map<String, Object> asTree(Map<?, ?> map) {
    Map<String, Object> tree = new LinkedHashMap<>();
    map.forEach((k, v) -> tree.put(String.valueOf(k), v));
    return tree;
  }
}
