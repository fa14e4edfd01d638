package io.sf2loki.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.cli.doctor.CheckReport;
import io.sf2loki.cli.doctor.CheckResult;
import io.sf2loki.cli.doctor.DoctorChecks;
import io.sf2loki.cli.doctor.DoctorContext;
import io.sf2loki.cli.doctor.DoctorRun;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.registry.Providers;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fake org, a fake Loki and a state file in one temporary directory, and a config pointing at
 * them; runs {@code doctor} through the real CLI and reads its JSON report.
 */
final class DoctorFixture implements AutoCloseable {

  static final KeyPair KEYS = generate();
  static final String USER = "integration@example.com";
  private static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;
  final Path state;
  final Path config;
  final FakeSalesforce sf;
  final FakeLoki loki;
  String salesforce;

  DoctorFixture(Path dir) throws IOException {
    this(dir, FakeSalesforce.builder());
  }

  DoctorFixture(Path dir, FakeSalesforce.Builder org) throws IOException {
    this.dir = dir;
    this.state = dir.resolve("state.json");
    this.config = dir.resolve("sf2loki.conf");
    this.sf =
        org.clientId("cid")
            .clientSecret("secret")
            .username(USER)
            .jwtPublicKey(KEYS.getPublic())
            .build();
    this.loki = FakeLoki.start();
    clientCredentials("secret");
  }

  private static KeyPair generate() {
    try {
      KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
      gen.initialize(2048);
      return gen.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** salesforce {} with client_credentials and {@code secret}. */
  DoctorFixture clientCredentials(String secret) {
    salesforce =
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = "%s"
        }
        """
            .formatted(sf.uri(), secret);
    return this;
  }

  /** salesforce {} with jwt_bearer as {@code user}. */
  DoctorFixture jwt(String user) throws IOException {
    Path pem = dir.resolve("key.pem");
    Files.writeString(
        pem,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder().encodeToString(KEYS.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n",
        StandardCharsets.UTF_8);
    salesforce =
        """
        salesforce {
          auth_mode = jwt_bearer
          login_url = "%s"
          client_id = cid
          username = "%s"
          private_key_file = "%s"
        }
        """
            .formatted(sf.uri(), user, pem);
    return this;
  }

  /** Writes the config: the salesforce block, Loki, the file store, then {@code extra}. */
  Path write(String extra) throws IOException {
    Files.writeString(
        config,
        salesforce
            + "sink.loki.url = \""
            + loki.uri()
            + "\"\n"
            + "state { store = file, file.path = \""
            + state
            + "\" }\n"
            + extra,
        StandardCharsets.UTF_8);
    return config;
  }

  /** {@code doctor --json} over {@code extra}, with {@code args} appended. */
  CliRun doctor(String extra, String... args) throws IOException {
    write(extra);
    List<String> all = new ArrayList<>(List.of("--config", config.toString(), "doctor"));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** The JSON report of a {@code doctor --json} run. */
  static JsonNode report(CliRun run) throws IOException {
    return JSON.readTree(run.out());
  }

  /** The row named {@code name}, when the report has one. */
  static Optional<JsonNode> check(JsonNode report, String name) {
    for (JsonNode c : report.path("checks")) {
      if (name.equals(c.path("name").asText())) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The row named {@code name} of {@code doctor --json} over {@code extra}. */
  JsonNode checkOf(String extra, String name) throws IOException {
    return check(report(doctor(extra, "--json")), name).orElseThrow();
  }

  /** Runs the checks in process with {@code clock} as this host's clock. */
  List<CheckReport> runWith(String extra, Clock clock) throws Exception {
    write(extra);
    ClassLoader loader = DoctorFixture.class.getClassLoader();
    Sf2LokiConfig bound =
        Sf2LokiConfig.bind(
            new ConfigLoader(loader, Map.of()).load(Optional.of(config)),
            Providers.discover(loader));
    try (DoctorContext context =
        new DoctorContext(bound, Providers.discover(loader), clock, Map.of())) {
      return new DoctorRun(Duration.ofSeconds(20)).run(DoctorChecks.of(bound), context, List.of());
    }
  }

  /** The {@code k8s_rbac} check of a configuration of orgs over {@code extra}, run in process. */
  CheckResult k8sRbacOfShards(String extra) throws Exception {
    write(extra);
    ClassLoader loader = DoctorFixture.class.getClassLoader();
    Providers providers = Providers.discover(loader);
    LoadedConfig loaded = new ConfigLoader(loader, Map.of()).load(Optional.of(config));
    Shards shards = Shards.bind(loaded, providers);
    try (DoctorContext context =
        new DoctorContext(shards.first().config(), providers, Clock.systemUTC(), Map.of())) {
      return DoctorChecks.k8sRbac(loaded, shards).run(context);
    }
  }

  @Override
  public void close() {
    sf.close();
    loki.close();
  }
}
