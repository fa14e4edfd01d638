package io.sf2loki.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The names docs/observability/metrics.md documents, and the names a scrape or the code shows. */
public final class MetricsReference {

  /** The repository's root, from a module's directory (where the tests run). */
  public static final Path ROOT = Path.of("..");

  /** The metrics reference. */
  public static final Path DOC = ROOT.resolve(Path.of("docs", "observability", "metrics.md"));

  private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(sf2loki_[a-z0-9_]+)` \\|");
  private static final Pattern TYPE_LINE =
      Pattern.compile("^# TYPE (sf2loki_[a-zA-Z0-9_:]+) ([a-z]+)$");
  private static final Pattern SAMPLE = Pattern.compile("^(sf2loki_[a-zA-Z0-9_:]+)[{ ]");
  private static final Pattern NAME_LITERAL = Pattern.compile("\"(sf2loki_[a-z0-9_]+)\"");

  /**
   * The section of the reference whose meters describe a process, not an org: they carry no {@code
   * org} label even with {@code orgs}, as the section says.
   */
  public static final String PER_PROCESS_SECTION = "## Shard balance";

  private MetricsReference() {}

  /** The metric names the reference's tables list, as Prometheus exposes them. */
  public static Set<String> documented() throws IOException {
    Set<String> names = new TreeSet<>();
    for (String line : Files.readAllLines(DOC)) {
      Matcher m = TABLE_ROW.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /**
   * The metric names the reference's {@link #PER_PROCESS_SECTION} lists: per process, without the
   * {@code org} label.
   */
  public static Set<String> perProcess() throws IOException {
    Set<String> names = new TreeSet<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("## ")) {
        inSection = line.equals(PER_PROCESS_SECTION);
      }
      Matcher m = TABLE_ROW.matcher(line);
      if (inSection && m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /**
   * The metric families of a Prometheus text scrape, by the name an operator queries: a counter's
   * {@code _total} series, a histogram's family (not its {@code _bucket}, {@code _count} and {@code
   * _sum} series), a gauge's name.
   */
  static Set<String> families(String scrape) {
    Map<String, String> types = new HashMap<>();
    Set<String> samples = new TreeSet<>();
    for (String line : scrape.split("\n")) {
      Matcher type = TYPE_LINE.matcher(line);
      Matcher sample = SAMPLE.matcher(line);
      if (type.matches()) {
        types.put(type.group(1), type.group(2));
      } else if (sample.find()) {
        samples.add(sample.group(1));
      }
    }
    Set<String> families = new TreeSet<>();
    for (String s : samples) {
      String base = s.replaceFirst("_(bucket|count|sum)$", "");
      families.add("histogram".equals(types.get(base)) ? base : s);
    }
    return families;
  }

  /**
   * Every {@code "sf2loki_…"} string literal of the main sources of the modules a daemon runs (the
   * test kits excluded): the names meters are registered under, before Prometheus' suffixes.
   */
  static Set<String> namesInMainCode() {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : modules.toList()) {
        String name = module.getFileName().toString();
        Path sources = module.resolve(Path.of("src", "main", "java"));
        if (!name.startsWith("sf2loki-")
            || name.equals("sf2loki-testkit")
            || name.equals("sf2loki-tck")
            || !Files.isDirectory(sources)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(sources)) {
          files.filter(p -> p.toString().endsWith(".java")).forEach(p -> names.addAll(literals(p)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }

  private static Set<String> literals(Path file) {
    try {
      Set<String> found = new TreeSet<>();
      Matcher m = NAME_LITERAL.matcher(Files.readString(file));
      while (m.find()) {
        found.add(m.group(1));
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
