package io.sf2loki.daemon.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.loki.FakeLoki;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/embedding.md promises its example compiles and runs; this holds it to that. */
class EmbeddingExampleTest {

  @TempDir Path dir;

  @Test
  void theDocumentedExampleCompilesRunsAndResumesFromItsCheckpoint() throws Exception {
    String markdown = Files.readString(Path.of("..", "docs", "embedding.md"));
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find()).as("a java block in docs/embedding.md").isTrue();
    Path source = dir.resolve("EmbeddedExample.java");
    Files.writeString(source, block.group(1));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            dir.toString(),
            source.toString());
    assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    try (FakeLoki loki = FakeLoki.start();
        URLClassLoader loader =
            new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass("EmbeddedExample").getMethod("main", String[].class);
      String[] args = {loki.baseUri().toString(), dir.resolve("state.json").toString()};
      String first = captureStdout(() -> main.invoke(null, (Object) args));
      assertThat(first).contains("Finished");
      assertThat(loki.lines()).isEqualTo(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}"));
      assertThat(Files.readString(dir.resolve("state.json"))).contains("\"hello:n\": \"3\"");
      captureStdout(() -> main.invoke(null, (Object) args));
      assertThat(loki.lines()).hasSize(3);
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  private static String captureStdout(Action action) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
