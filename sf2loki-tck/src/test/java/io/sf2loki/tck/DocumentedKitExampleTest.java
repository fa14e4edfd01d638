package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/embedding.md shows a third-party store running the kit; this compiles that block and runs it
 * with JUnit, so the example is known to compile and to pass every rule of the contract.
 */
class DocumentedKitExampleTest {

  private static final String SECTION = "## Testing your own store or coordinator with sf2loki-tck";

  @TempDir Path dir;

  @Test
  void theDocumentedThirdPartyStoreCompilesAndPassesTheWholeContract() throws Exception {
    String markdown = Files.readString(Path.of("..", "docs", "embedding.md"));
    int section = markdown.indexOf(SECTION);
    assertThat(section).as("the section in docs/embedding.md").isNotNegative();
    Matcher block =
        Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(markdown.substring(section));
    assertThat(block.find()).as("a java block in the section").isTrue();
    Matcher publicClass = Pattern.compile("public class (\\w+)").matcher(block.group(1));
    assertThat(publicClass.find()).as("a public test class in the block").isTrue();
    String className = publicClass.group(1);

    Path source = dir.resolve(className + ".java");
    Files.writeString(source, block.group(1));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-Xlint:all",
            "-Werror",
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            dir.toString(),
            source.toString());
    assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      KitRun run = KitRun.of(loader.loadClass(className));
      assertThat(run.failed()).as("failures: %s", run.why()).isEmpty();
      assertThat(run.skipped()).isEmpty();
      assertThat(run.succeeded())
          .as("every rule of CheckpointStoreContract ran")
          .hasSizeGreaterThanOrEqualTo(18)
          .contains(
              "commitBelowPersistedEpochIsFencedAndChangesNothing",
              "interleavedWritersNeverLowerTheEpochAndMatchTheModel");
    }
  }
}
