package io.sf2loki.config;

import static io.sf2loki.config.ConfigTestSupport.VALID;
import static io.sf2loki.config.ConfigTestSupport.loader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sf2loki.loki.LokiSinkConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Sf2LokiConfigTest {

  /** The bound {@code sink.loki} section, as the loki provider sees it. */
  private static LokiSinkConfig loki(Sf2LokiConfig config) {
    return LokiSinkConfig.bind(config.loaded().reader().section("sink.loki"));
  }

  private static Sf2LokiConfig bind(String hocon) {
    return bind(hocon, Map.of());
  }

  private static Sf2LokiConfig bind(String hocon, Map<String, String> env) {
    return Sf2LokiConfig.bind(loader(env).loadString(hocon), FakeProviders.standard());
  }

  private static List<String> problems(String hocon) {
    ConfigInvalidException e = assertThrows(ConfigInvalidException.class, () -> bind(hocon));
    return e.problems().stream().map(ConfigProblem::message).toList();
  }

  @Test
  void validConfigBindsWithDefaults() {
    Sf2LokiConfig config = bind(VALID);
    assertThat(loki(config).pushUrl())
        .isEqualTo(URI.create("http://localhost:3100/loki/api/v1/push"));
    assertThat(loki(config).encoding()).isEqualTo(LokiSinkConfig.Encoding.PROTOBUF);
    assertThat(config.service().shutdownGrace()).isEqualTo(Duration.ofSeconds(25));
    assertThat(config.storeType()).isEqualTo("file");
    assertThat(config.coordinatorType()).isEqualTo("noop");
    assertThat(config.isCoordinated()).isFalse();
  }

  @Test
  void theStreamingLaneFlushesOnItsOwnShorterIntervalAndTheBulkLaneKeepsTheBatchOne() {
    Sf2LokiConfig config =
        bind(VALID + "\nsink.loki.batch { flush_interval = 2s, streaming_flush_interval = 100ms }");
    var pipeline = io.sf2loki.engine.ConfiguredEngine.settings(config, Map.of()).pipeline();
    assertThat(pipeline.lane(io.sf2loki.spi.Source.Lane.STREAMING).flushInterval())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(pipeline.lane(io.sf2loki.spi.Source.Lane.BULK).flushInterval())
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(pipeline.lane(io.sf2loki.spi.Source.Lane.STREAMING).maxEntries())
        .isEqualTo(pipeline.lane(io.sf2loki.spi.Source.Lane.BULK).maxEntries());
  }

  @Test
  void theStreamingLingerReachesTheStreamingLane() {
    Sf2LokiConfig config = bind(VALID + "\nsink.loki.batch.streaming_linger = 3ms");
    var pipeline = io.sf2loki.engine.ConfiguredEngine.settings(config, Map.of()).pipeline();
    assertThat(pipeline.lane(io.sf2loki.spi.Source.Lane.STREAMING).streamingLinger())
        .isEqualTo(Duration.ofMillis(3));
  }

  @Test
  void aNegativeStreamingLingerIsRefusedWithItsKey() {
    assertThat(problems(VALID + "\nsink.loki.batch.streaming_linger = PT-1S"))
        .contains("sink.loki.batch.streaming_linger must not be negative");
  }

  @Test
  void theStreamingCommitIntervalReachesThePipeline() {
    Sf2LokiConfig config = bind(VALID + "\nstate.streaming_commit_interval = 250ms");
    assertThat(
            io.sf2loki.engine.ConfiguredEngine.settings(config, Map.of())
                .pipeline()
                .streamingCommitInterval())
        .isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void aNegativeStreamingCommitIntervalIsRefusedWithItsKey() {
    // "-1s" is already no duration; ISO-8601 parses a negative one
    assertThat(problems(VALID + "\nstate.streaming_commit_interval = PT-1S"))
        .contains("state.streaming_commit_interval must not be negative");
  }

  @Test
  void threeIndependentMistakesAreAllReportedWithTheirKeyPaths() {
    List<String> problems =
        problems(
            VALID
                + """
                service.http_port = eighty
                sink.loki.batch.flush_interval = soon
                salesforce.token_ttl = 30s
                """);
    assertThat(problems)
        .anySatisfy(p -> assertThat(p).startsWith("service.http_port must be an integer"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith("sink.loki.batch.flush_interval: 'soon' is not a duration"))
        .anySatisfy(
            p -> assertThat(p).startsWith("salesforce.token_ttl (30s) must be greater than"))
        .hasSize(3);
  }

  @Test
  void missingRequiredKeysAreNamed() {
    List<String> problems = problems("salesforce.auth_mode = jwt_bearer\n");
    assertThat(problems)
        .contains(
            "salesforce.client_id must not be empty",
            "salesforce.username is required when auth_mode is jwt_bearer",
            "sink.loki.url must not be empty")
        .anySatisfy(p -> assertThat(p).startsWith("salesforce.private_key is required"));
  }

  @Test
  void blankSecretCountsAsMissing() {
    List<String> problems = problems(VALID + "salesforce.client_secret = \"   \"\n");
    assertThat(problems)
        .containsExactly(
            "salesforce.client_secret is required: set it, or salesforce.client_secret_file to a"
                + " file holding it");
  }

  @Test
  void secretIsReadFromAFileWithWhitespaceStripped(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("secret");
    Files.writeString(file, "  from-file\n");
    Sf2LokiConfig config =
        bind(
            VALID.replace("client_secret = \"s3cr3t-value\"", "")
                + "salesforce.client_secret_file = \""
                + file
                + "\"\n");
    assertThat(config.salesforce().clientSecret().orElseThrow().reveal()).isEqualTo("from-file");
  }

  @Test
  void blankSecretFileIsAProblemNamingTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("empty");
    Files.writeString(file, "\n");
    List<String> problems =
        problems(
            VALID.replace("client_secret = \"s3cr3t-value\"", "")
                + "salesforce.client_secret_file = \""
                + file
                + "\"\n");
    assertThat(problems).containsExactly("salesforce.client_secret_file (" + file + ") is empty");
  }

  @Test
  void secretNeverAppearsInToStringOrProblems() {
    Sf2LokiConfig config = bind(VALID);
    assertThat(config.toString()).doesNotContain("s3cr3t-value");
    List<String> problems =
        problems(VALID + "sink.loki.bearer_token = tok3n\nsink.loki.auth_token = p4ss\n");
    assertThat(String.join("\n", problems)).doesNotContain("tok3n").doesNotContain("p4ss");
  }

  @Test
  void unknownStoreTypeListsTheKnownOnes() {
    assertThat(problems(VALID + "state.store = dynamodb\n"))
        .containsExactly("state.store: unknown checkpoint store type 'dynamodb' (known: file)");
  }

  @Test
  void unknownCoordinatorTypeListsTheKnownOnes() {
    assertThat(problems(VALID + "coordinate.type = zookeeper\n"))
        .containsExactly("coordinate.type: unknown coordinator type 'zookeeper' (known: noop)");
  }

  @Test
  void environmentOverrideIsValidatedLikeTheFile() {
    ConfigInvalidException e =
        assertThrows(
            ConfigInvalidException.class,
            () -> bind(VALID, Map.of("SF2LOKI_SERVICE__HTTP_PORT", "99999")));
    assertThat(e.problems())
        .extracting(ConfigProblem::message)
        .containsExactly("service.http_port (99999) must be between 0 and 65535");
  }

  @Test
  void environmentOverrideTakesPrecedence() {
    Sf2LokiConfig config = bind(VALID, Map.of("SF2LOKI_SERVICE__HTTP_PORT", "9100"));
    assertThat(config.service().httpPort()).isEqualTo(9100);
  }

  @Test
  void clientCredentialsRequireMyDomainLoginUrl() {
    assertThat(problems(VALID.replace("acme.my.salesforce.com", "login.salesforce.com")))
        .containsExactly(
            "salesforce.login_url must be your My Domain URL (https://<domain>.my.salesforce.com)"
                + " when auth_mode is client_credentials, not login.salesforce.com");
  }

  @Test
  void labelOutsideTheAllowlistIsRejected() {
    assertThat(problems(VALID + "sink.loki.labels { user_id = x }\n"))
        .singleElement()
        .satisfies(
            p -> assertThat(p).startsWith("sink.loki.labels.user_id is not an allowed label"));
  }

  @Test
  void basicAndBearerAuthAreMutuallyExclusive() {
    assertThat(problems(VALID + "sink.loki.bearer_token = a\nsink.loki.auth_token = b\n"))
        .containsExactly("sink.loki.bearer_token and sink.loki.auth_token are mutually exclusive");
  }

  @Test
  void pushPathIsAppendedOnlyWhenMissing() {
    Sf2LokiConfig config =
        bind(VALID + "sink.loki.url = \"https://logs.example/loki/api/v1/push\"\n");
    assertThat(loki(config).pushUrl())
        .isEqualTo(URI.create("https://logs.example/loki/api/v1/push"));
  }

  @Test
  void nonHttpUrlIsRejectedWithoutEchoingCredentials() {
    assertThat(problems(VALID + "sink.loki.url = \"ftp://user:pw@host/x\"\n"))
        .containsExactly(
            "sink.loki.url must be an http:// or https:// URL (got 'ftp://***@host/x')");
  }

  @Test
  void exampleConfigPassesCheckOnceItsPlaceholderSecretsAreFilled() {
    String example = ConfigDocs.exampleHocon(loader().schema());
    assertThat(problems(example))
        .anySatisfy(p -> assertThat(p).startsWith("salesforce.client_secret is required"));
    String filled = example.replace("client_secret = \"\"", "client_secret = \"filled-in\"");
    Sf2LokiConfig config = bind(filled);
    assertThat(config.salesforce().authMode())
        .isEqualTo(SalesforceConfig.AuthMode.CLIENT_CREDENTIALS);
  }
}
