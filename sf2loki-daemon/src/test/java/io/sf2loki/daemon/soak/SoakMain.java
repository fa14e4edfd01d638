package io.sf2loki.daemon.soak;

import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code just soak [MINUTES]}: runs the soak of every store, prints each report and writes them to
 * {@code <out>/report.md}; exits 0 when every proof held, 1 when one failed, 2 on a usage error.
 */
public final class SoakMain {

  private SoakMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    SoakOptions options;
    try {
      options = SoakOptions.parse(Arrays.asList(args));
    } catch (IllegalArgumentException e) {
      System.err.println("soak: " + e.getMessage());
      System.err.println(SoakOptions.USAGE);
      System.exit(2);
      return;
    }
    if (!Files.isRegularFile(options.daemonJar())) {
      System.err.println(
          "soak: no daemon jar at "
              + options.daemonJar().toAbsolutePath()
              + " (mvn -B -DskipTests -pl sf2loki-daemon -am package builds it)");
      System.exit(2);
    }
    List<SoakReport> reports = run(options, System.out);
    StringBuilder markdown = new StringBuilder();
    for (SoakReport report : reports) {
      markdown.append(report.render()).append('\n');
    }
    Files.createDirectories(options.outputDir());
    Path file = options.outputDir().resolve("report.md");
    Files.writeString(file, markdown);
    System.out.println(markdown);
    System.out.println("report written to " + file.toAbsolutePath());
    System.exit(reports.stream().allMatch(r -> r.violations().isEmpty()) ? 0 : 1);
  }

  /** Runs every store of {@code options} in turn. */
  static List<SoakReport> run(SoakOptions options, PrintStream log)
      throws IOException, InterruptedException {
    Soak soak = new Soak(options, Ticker.SYSTEM, Sleeper.SYSTEM, log);
    List<SoakReport> reports = new ArrayList<>();
    for (SoakStore.Kind kind : options.stores()) {
      Path shared = sharedDir(options.outputDir().resolve(kind.type() + "-shared"));
      try {
        reports.add(soak.run(kind, shared));
      } finally {
        SoakWorld.deleteTree(shared);
      }
    }
    return reports;
  }

  /**
   * A fresh directory for the lease and the state file: on tmpfs ({@code /dev/shm}) when there is
   * one, since a claim slower than the verify pause is abandoned by design.
   */
  private static Path sharedDir(Path fallback) throws IOException {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return Files.createTempDirectory(shm, "sf2loki-soak-");
    }
    SoakWorld.deleteTree(fallback);
    return Files.createDirectories(fallback);
  }
}
