package io.sf2loki.testkit.salesforce;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The columns of an event type's log files, in header order, with the types Salesforce lists in
 * {@code LogFileFieldTypes} ({@code String}, {@code Id}, {@code Number}, {@code DateTime}, ...).
 * {@link #STANDARD} is what every file has unless {@link FakeSalesforce#changeSchema} says
 * otherwise; the editing methods return changed copies, as a Salesforce release changes a type's
 * columns. A column the generator does not know gets the value {@code <name in lower case>-<row>}.
 *
 * @param columns the columns in header order, names unique
 */
public record LogFileSchema(List<Column> columns) {

  /** One column. */
  public record Column(String name, String type) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      if (!name.matches("[A-Za-z0-9_]+") || !type.matches("[A-Za-z]+")) {
        throw new IllegalArgumentException("not a column name and type: " + name + " " + type);
      }
    }
  }

  /** The generator's columns ({@link LogFileCsv}). */
  public static final LogFileSchema STANDARD =
      new LogFileSchema(
          List.of(
              new Column("EVENT_TYPE", "String"),
              new Column("TIMESTAMP", "String"),
              new Column("REQUEST_ID", "String"),
              new Column("ORGANIZATION_ID", "Id"),
              new Column("USER_ID", "Id"),
              new Column("RUN_TIME", "Number"),
              new Column("CPU_TIME", "Number"),
              new Column("URI", "String"),
              new Column("SESSION_KEY", "String"),
              new Column("REQUEST_STATUS", "String"),
              new Column("MESSAGE", "String"),
              new Column("TIMESTAMP_DERIVED", "DateTime"),
              new Column("USER_ID_DERIVED", "Id")));

  public LogFileSchema {
    columns = List.copyOf(columns);
    if (columns.stream().map(Column::name).distinct().count() != columns.size()) {
      throw new IllegalArgumentException("column names must be unique: " + columns);
    }
  }

  /** The names in header order. */
  public List<String> names() {
    return columns.stream().map(Column::name).toList();
  }

  /** The types in header order. */
  public List<String> types() {
    return columns.stream().map(Column::type).toList();
  }

  /** With {@code name} of {@code type} appended. */
  public LogFileSchema plus(String name, String type) {
    List<Column> out = new ArrayList<>(columns);
    out.add(new Column(name, type));
    return new LogFileSchema(out);
  }

  /** Without {@code name}. */
  public LogFileSchema minus(String name) {
    return new LogFileSchema(columns.stream().filter(c -> !c.name().equals(name)).toList());
  }

  /** With {@code name} listed as {@code type}. */
  public LogFileSchema retyped(String name, String type) {
    return new LogFileSchema(
        columns.stream().map(c -> c.name().equals(name) ? new Column(name, type) : c).toList());
  }

  /** With {@code from} renamed {@code to}, in place. */
  public LogFileSchema renamed(String from, String to) {
    return new LogFileSchema(
        columns.stream().map(c -> c.name().equals(from) ? new Column(to, c.type()) : c).toList());
  }
}
