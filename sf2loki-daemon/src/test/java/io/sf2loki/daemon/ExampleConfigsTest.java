package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code examples/*.conf} passes {@code --check}, so the shipped examples cannot rot. The
 * environment the examples document is supplied here: secret files through {@code SF2LOKI_}
 * overrides of their {@code *_file} keys, and the variables the files substitute.
 */
class ExampleConfigsTest {

  private static final Path EXAMPLES = Path.of("..", "examples");

  @TempDir Path dir;

  static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  void examplePassesCheck(Path example) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {"--config", example.toString(), "--check"},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            environment(),
            getClass().getClassLoader(),
            (config, debug) -> {
              throw new AssertionError("--check must not run the service");
            });
    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertThat(out.toString()).contains("config check OK").doesNotContain("WARN");
  }

  @org.junit.jupiter.api.Test
  void checkWarnsAboutATopologyThatCannotBeSafeAndStillExitsZero() throws Exception {
    Path config = dir.resolve("unsafe.conf");
    String pair = Files.readString(EXAMPLES.resolve("file-lease-pair.conf"));
    Files.writeString(
        config, pair + "\nstate.file.path = \"/tmp/state.json\"\nservice.shutdown_grace = 40s\n");
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new String[] {"--config", config.toString(), "--check"},
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true),
            environment(),
            getClass().getClassLoader(),
            (c, debug) -> {
              throw new AssertionError("--check must not run the service");
            });
    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("config check WARN: state.file.path (/tmp/state.json) is under a node-local")
        .contains("config check WARN: state.file.path (/tmp/state.json) is not in the directory")
        .contains("config check WARN: service.shutdown_grace (40s) is not below the lease duration")
        .endsWith("config check OK\n");
  }

  @org.junit.jupiter.api.Test
  void theThreeTopologiesAndTheDemoAreShipped() throws IOException {
    assertThat(examples().stream().map(p -> p.getFileName().toString()))
        .contains(
            "demo.conf",
            "single-instance.conf",
            "file-lease-pair.conf",
            "kubernetes.conf",
            "multi-org.conf");
  }

  private Map<String, String> environment() throws IOException, NoSuchAlgorithmException {
    Path key = dir.resolve("salesforce.key");
    Files.writeString(key, rsaPrivateKeyPem());
    Path token = dir.resolve("loki-token");
    Files.writeString(token, "glc_example_token\n");
    Path emeaSecret = dir.resolve("emea-client-secret");
    Files.writeString(emeaSecret, "emea-consumer-secret\n");
    return Map.of(
        "EMEA_CLIENT_SECRET_FILE", emeaSecret.toString(),
        "SF2LOKI_SALESFORCE__PRIVATE_KEY_FILE", key.toString(),
        "SF2LOKI_SINK__LOKI__AUTH_TOKEN_FILE", token.toString(),
        "DEMO_DIR", dir.toString(),
        "POD_NAME", "sf2loki-7c9d4-abcde",
        "POD_NAMESPACE", "observability");
  }

  private static String rsaPrivateKeyPem() throws NoSuchAlgorithmException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    byte[] der = generator.generateKeyPair().getPrivate().getEncoded();
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .encodeToString(der)
        + "\n-----END PRIVATE KEY-----\n";
  }
}
