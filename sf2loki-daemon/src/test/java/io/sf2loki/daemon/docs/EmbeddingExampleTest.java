package io.sf2loki.daemon.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.spi.SinkProvider;
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

/**
 * docs/embedding.md promises its examples compile and work against the real SPI; this holds it to
 * that.
 */
class EmbeddingExampleTest {

  @TempDir Path dir;

  @Test
  void theDocumentedExampleCompilesRunsAndResumesFromItsCheckpoint() throws Exception {
    compile(javaBlock("# Embedding sf2loki"), "EmbeddedExample.java");
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

  @Test
  void theDocumentedSinkProviderCompilesAgainstTheSpiAndRecordsItsProblem() throws Exception {
    // The block's MySink is the reader's own class; a stand-in with its constructor suffices.
    Path stub = dir.resolve("MySink.java");
    Files.writeString(
        stub,
        """
        package com.example;

        public final class MySink implements io.sf2loki.spi.Sink {
          public MySink(String topic, java.time.Duration timeout,
              java.util.Optional<io.sf2loki.spi.Secret> token,
              io.micrometer.core.instrument.MeterRegistry metrics) {}

          @Override
          public void push(io.sf2loki.model.Batch batch) {}
        }
        """);
    compile(javaBlock("## A sink of your own"), "MySinkProvider.java", stub);

    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      SinkProvider provider =
          (SinkProvider)
              loader.loadClass("com.example.MySinkProvider").getConstructor().newInstance();
      ConfigReader root =
          ConfigReader.of(ConfigFactory.parseString("sink.mine { topic = \"a b\", timeout = 5s }"));
      SinkProvider.Factory factory = provider.configure(root.section("sink." + provider.type()));
      assertThat(factory.target()).isEqualTo("a b");
      assertThat(root.problems())
          .extracting(ConfigProblem::message)
          .containsExactly("sink.mine.topic must not contain spaces");
    }
  }

  /** The first java block of docs/embedding.md at or after {@code heading}. */
  private static String javaBlock(String heading) throws Exception {
    String markdown = Files.readString(Path.of("..", "docs", "embedding.md"));
    int at = markdown.indexOf(heading + "\n");
    assertThat(at).as(heading + " in docs/embedding.md").isNotNegative();
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find(at)).as("a java block under " + heading).isTrue();
    return block.group(1);
  }

  private void compile(String code, String fileName, Path... more) throws Exception {
    Path source = dir.resolve(fileName);
    Files.writeString(source, code);
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "-classpath",
                System.getProperty("java.class.path"),
                "-d",
                dir.toString(),
                source.toString()));
    for (Path p : more) {
      args.add(p.toString());
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
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
