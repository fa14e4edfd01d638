package io.sf2loki.salesforce.soql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Assembles a SELECT in the exact whitespace the SOQL catalogue specifies: the select list joined
 * with {@code ,} (no spaces), conditions joined with {@code AND}, {@code ORDER BY} items joined
 * with {@code ", "}. Field and object names are validated; conditions come from {@link Condition}.
 *
 * <pre>
 * SoqlQuery.select("Id", "EventType").from("EventLogFile")
 *     .where(Condition.equalTo("EventType", Soql.stringLiteral(type)))
 *     .orderBy("CreatedDate", "Id").limit(1000).build();
 * </pre>
 */
public final class SoqlQuery {

  private final List<String> fields;
  private String from;
  private final List<Condition> where = new ArrayList<>();
  private String groupBy;
  private final List<String> orderBy = new ArrayList<>();
  private int limit = -1;

  private SoqlQuery(List<String> fields) {
    this.fields = fields;
  }

  /** Starts a query selecting {@code fields} (each validated). */
  public static SoqlQuery select(String... fields) {
    List<String> checked = new ArrayList<>();
    for (String f : fields) {
      checked.add(Soql.identifier(f));
    }
    if (checked.isEmpty()) {
      throw new IllegalArgumentException("a query selects at least one field");
    }
    return new SoqlQuery(checked);
  }

  public SoqlQuery from(String object) {
    this.from = Soql.identifier(object);
    return this;
  }

  public SoqlQuery where(Condition condition) {
    where.add(Objects.requireNonNull(condition));
    return this;
  }

  public SoqlQuery groupBy(String field) {
    this.groupBy = Soql.identifier(field);
    return this;
  }

  /** Items are field names, optionally followed by {@code ASC} or {@code DESC}. */
  public SoqlQuery orderBy(String... items) {
    for (String item : items) {
      String[] parts = item.split(" ", -1);
      Soql.identifier(parts[0]);
      if (parts.length > 2 || parts.length == 2 && !parts[1].matches("ASC|DESC")) {
        throw new InvalidSoqlValueException("ORDER BY item", item);
      }
      orderBy.add(item);
    }
    return this;
  }

  public SoqlQuery limit(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("LIMIT must be positive: " + n);
    }
    this.limit = n;
    return this;
  }

  /** The query text. */
  public String build() {
    Objects.requireNonNull(from, "from");
    StringBuilder q = new StringBuilder("SELECT ").append(String.join(",", fields));
    q.append(" FROM ").append(from);
    if (!where.isEmpty()) {
      q.append(" WHERE ");
      for (int i = 0; i < where.size(); i++) {
        q.append(i == 0 ? "" : " AND ").append(where.get(i).text());
      }
    }
    if (groupBy != null) {
      q.append(" GROUP BY ").append(groupBy);
    }
    if (!orderBy.isEmpty()) {
      q.append(" ORDER BY ").append(String.join(", ", orderBy));
    }
    if (limit > 0) {
      q.append(" LIMIT ").append(limit);
    }
    return q.toString();
  }
}
