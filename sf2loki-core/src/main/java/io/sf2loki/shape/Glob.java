package io.sf2loki.shape;

import java.util.regex.Pattern;

/**
 * A case-sensitive shell glob as Python's {@code fnmatch.fnmatchcase} reads it: {@code *} (any run,
 * including {@code /}), {@code ?} (one character), {@code [seq]} and {@code [!seq]}; everything
 * else literal. An unterminated {@code [} is a literal bracket.
 */
public record Glob(String text, Pattern pattern) {

  /** Compiles {@code glob}. */
  public static Glob of(String glob) {
    return new Glob(glob, Pattern.compile(toRegex(glob), Pattern.DOTALL));
  }

  /** True when the whole of {@code value} matches. */
  public boolean matches(String value) {
    return pattern.matcher(value).matches();
  }

  private static String toRegex(String glob) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i++);
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        int close = glob.indexOf(']', i + (i < glob.length() && glob.charAt(i) == '!' ? 2 : 1));
        if (close < 0) {
          re.append("\\[");
          continue;
        }
        String body = glob.substring(i, close);
        i = close + 1;
        boolean negate = body.startsWith("!");
        if (negate) {
          body = body.substring(1);
        }
        re.append('[')
            .append(negate ? "^" : "")
            .append(body.replace("\\", "\\\\").replace("[", "\\["))
            .append(']');
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return re.toString();
  }

  @Override
  public String toString() {
    return text;
  }
}
