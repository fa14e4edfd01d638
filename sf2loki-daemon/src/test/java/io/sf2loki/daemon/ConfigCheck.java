package io.sf2loki.daemon;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;

/**
 * {@code sf2loki-daemon --config FILE --check}, in-process, for the configuration files the project
 * ships (examples, deployment manifests), with the environment they document: the secret files
 * through {@code SF2LOKI_} overrides of their {@code *_file} keys, and the variables they
 * substitute.
 */
public final class ConfigCheck {

  /**
   * One finished check.
   *
   * @param code the exit code
   * @param out what it printed on standard output
   * @param err what it printed on standard error
   */
  public record Result(int code, String out, String err) {}

  private ConfigCheck() {}

  /** Runs the check of {@code config} in {@code environment}; the service is never run. */
  public static Result check(Path config, Map<String, String> environment) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {"--config", config.toString(), "--check"},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            environment,
            ConfigCheck.class.getClassLoader(),
            (c, debug) -> {
              throw new AssertionError("--check must not run the service");
            });
    return new Result(code, out.toString(), err.toString());
  }

  /**
   * The environment the shipped files document, with the secrets written into {@code dir}: a
   * Salesforce private key and a Loki token, the pod's name and namespace, {@code DEMO_DIR}.
   */
  public static Map<String, String> documentedEnvironment(Path dir)
      throws IOException, GeneralSecurityException {
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

  private static String rsaPrivateKeyPem() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    byte[] der = generator.generateKeyPair().getPrivate().getEncoded();
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END PRIVATE KEY-----\n";
  }
}
