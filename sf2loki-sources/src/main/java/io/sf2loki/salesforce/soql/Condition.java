package io.sf2loki.salesforce.soql;

import java.util.List;

/**
 * One WHERE condition. Built only from validated field names and literals produced by {@link Soql},
 * so no raw text reaches a query (hence no public constructor).
 */
public final class Condition {

  private final String text;

  private Condition(String text) {
    this.text = text;
  }

  /** The condition's SOQL text. */
  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return text;
  }

  /** {@code field='value'}: the compact equality of the EventLogFile shapes. */
  public static Condition equalTo(String field, String literal) {
    return new Condition(Soql.identifier(field) + "=" + literal);
  }

  /** {@code field >= literal}. */
  public static Condition atLeast(String field, String literal) {
    return compare(field, ">=", literal);
  }

  /** {@code field <= literal}. */
  public static Condition atMost(String field, String literal) {
    return compare(field, "<=", literal);
  }

  /** {@code field op literal} for {@code = < > <= >= !=}. */
  public static Condition compare(String field, String op, String literal) {
    if (!List.of("=", "<", ">", "<=", ">=", "!=").contains(op)) {
      throw new InvalidSoqlValueException("operator", op);
    }
    return new Condition(Soql.identifier(field) + " " + op + " " + literal);
  }

  /** {@code field IN ('a','b')}: literals from {@link Soql}, joined without spaces. */
  public static Condition in(String field, List<String> literals) {
    return list(field, " IN (", literals);
  }

  /** {@code field NOT IN ('a','b')}, as {@link #in}. */
  public static Condition notIn(String field, List<String> literals) {
    return list(field, " NOT IN (", literals);
  }

  private static Condition list(String field, String op, List<String> literals) {
    if (literals.isEmpty()) {
      throw new InvalidSoqlValueException("IN list", "(empty)");
    }
    return new Condition(Soql.identifier(field) + op + String.join(",", literals) + ")");
  }

  /** {@code (a OR b ...)}. */
  public static Condition anyOf(Condition... conditions) {
    return group(" OR ", conditions);
  }

  /** {@code (a OR b ...)} of a list. */
  public static Condition anyOf(List<Condition> conditions) {
    return group(" OR ", conditions.toArray(Condition[]::new));
  }

  /** {@code (a AND b ...)}. */
  public static Condition allOf(Condition... conditions) {
    return group(" AND ", conditions);
  }

  private static Condition group(String joiner, Condition... conditions) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < conditions.length; i++) {
      b.append(i == 0 ? "" : joiner).append(conditions[i].text());
    }
    return new Condition(b.append(')').toString());
  }
}
