package io.sf2loki.spi;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One section of the loaded configuration, as a provider reads and validates it in {@link
 * ComponentProvider#configure(ConfigSection)}: typed getters that <em>collect</em> problems instead
 * of throwing, so that a user sees every mistake at once, each with its key path.
 *
 * <p>The contract every getter keeps:
 *
 * <ul>
 *   <li>A key is relative to this section; {@link #path(String)} gives its full path ({@code
 *       state.s3.bucket}), which starts every message.
 *   <li>Defaults come from the modules' {@code reference.conf}; a key set to {@code null} there is
 *       optional and reads as unset.
 *   <li>A wrong or missing required value records one problem (see {@link #problem}) and returns a
 *       usable fallback, so binding code reads a whole section straight through; the launcher
 *       reports every problem of every section after binding, and a factory bound from a section
 *       with problems is never used.
 *   <li>No getter performs network or store I/O; only a secret's {@code _file} form reads a local
 *       file.
 * </ul>
 *
 * <p>Every section of one load shares one problem list: problems recorded through {@link #root()},
 * {@link #section(String)} or an {@link #objectList(String)} element count for the whole load.
 *
 * <p>Not thread-safe: bind on the launcher's thread, once per load.
 */
public interface ConfigSection {

  /** The whole configuration, to reach a shared section such as {@code salesforce}. */
  ConfigSection root();

  /** The sub-section at {@code key} ({@code "batch"}, or a dotted path {@code "sink.loki"}). */
  ConfigSection section(String key);

  /** The full path of {@code key} in this section, as shown in messages. */
  String path(String key);

  /** True when {@code key} is set to a non-null value (by a default or by the user). */
  boolean isSet(String key);

  /**
   * True when {@code key} is set by the user (file, string or environment), not only by a module's
   * {@code reference.conf} default; for warning about a retired key only when someone set it.
   */
  boolean isSetByUser(String key);

  /**
   * Records a problem about {@code key}, for rules the getters cannot check (two keys that exclude
   * each other, a relation between values). The message should start with {@link #path(String)
   * path(key)} and must not contain a secret.
   */
  void problem(String key, String message);

  /** The names set (to non-null values) directly in this section, sorted. */
  Set<String> keys();

  /**
   * A single value as a string; unset or blank reads as empty, an object or a list is a problem.
   */
  Optional<String> optionalString(String key);

  /** A string that must be present and not blank; the empty string plus a problem otherwise. */
  String requiredString(String key);

  /** A string with a default from {@code reference.conf}; blank reads as the empty string. */
  String string(String key);

  /** A string that must be one of {@code allowed}, compared exactly. */
  String oneOf(String key, Collection<String> allowed);

  /** A boolean ({@code true/false/yes/no/on/off}); {@code false} plus a problem when wrong. */
  boolean bool(String key);

  /** An integer within {@code [min, max]}; {@code min} plus a problem when wrong. */
  int intInRange(String key, int min, int max);

  /** A long within {@code [min, max]}; {@code min} plus a problem when wrong. */
  long longInRange(String key, long min, long max);

  /**
   * A byte size, an integer or a size with a unit ({@code 512KiB}, {@code 4MB}), at least {@code
   * min}; {@code min} plus a problem when wrong.
   */
  long bytes(String key, long min);

  /**
   * A required duration ({@code 30s}, {@code 5m}, {@code PT1H}, a bare number of seconds); zero
   * plus a problem when unset or wrong.
   */
  Duration duration(String key);

  /** A duration strictly greater than zero; a fallback plus a problem otherwise. */
  Duration positiveDuration(String key);

  /** A duration that may be unset; empty plus a problem when it does not parse. */
  Optional<Duration> optionalDuration(String key);

  /**
   * A list of strings; a single string (as an environment override gives) is split on commas. Unset
   * reads as empty.
   */
  List<String> stringList(String key);

  /** An object of names to string values (labels, headers), in the order given. */
  Map<String, String> stringMap(String key);

  /**
   * The objects of the list at {@code key} (rules, object entries), in list order. Element {@code
   * i} is addressed as {@code key.i} in messages ({@code sources.apexlog.transforms.0.action}); its
   * {@link #root()} is the element alone. An element that is not an object is recorded as a problem
   * and skipped.
   */
  List<ConfigSection> objectList(String key);

  /**
   * Like {@link #objectList(String)}, but an element may also be a bare string, read as the object
   * {@code {shorthandKey = element}} (so {@code ["Login", {name = API, sample = 0.5}]} is a list of
   * two objects with a {@code name}). A single comma-separated string is one shorthand element per
   * item.
   */
  List<ConfigSection> objectList(String key, String shorthandKey);

  /**
   * A secret given inline ({@code key}) or read from a file ({@code key_file}, whitespace
   * stripped). The inline value wins; a blank value counts as missing; an unreadable or empty file
   * is a problem.
   */
  Optional<Secret> optionalSecret(String key);

  /** A secret that must be given, inline or as a file; empty plus a problem when it is not. */
  Optional<Secret> requiredSecret(String key);

  /** An optional file the process must be able to read (a CA file); unreadable is a problem. */
  default Optional<Path> readableFile(String key) {
    Optional<Path> file = optionalString(key).map(Path::of);
    file.ifPresent(
        f -> {
          if (!Files.isReadable(f)) {
            problem(key, path(key) + ": cannot read " + f);
          }
        });
    return file;
  }

  /**
   * An optional file the process creates or appends to (a dead-letter file); a missing directory is
   * a problem, found at config check rather than at the first write.
   */
  default Optional<Path> fileInExistingDirectory(String key) {
    Optional<Path> file = optionalString(key).map(Path::of);
    file.ifPresent(
        f -> {
          Path dir = f.toAbsolutePath().getParent();
          if (dir == null || !Files.isDirectory(dir)) {
            problem(key, path(key) + ": directory of " + f + " missing");
          }
        });
    return file;
  }
}
