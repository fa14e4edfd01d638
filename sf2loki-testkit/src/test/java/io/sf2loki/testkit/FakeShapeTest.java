package io.sf2loki.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.gcs.FakeGcsServer;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What every protocol fake shares: where it serves, how it stops, what it leaves alone. */
@ScaledTimeout(seconds = 10)
class FakeShapeTest {

  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  /** Starts one fake with its defaults. */
  interface Starter {
    ProtocolFake<?> start() throws IOException;
  }

  static Stream<Arguments> fakes() {
    return Stream.of(
        Arguments.of(Named.of("FakeLoki", (Starter) () -> FakeLoki.builder().start())),
        Arguments.of(Named.of("FakeSalesforce", (Starter) () -> FakeSalesforce.builder().start())),
        Arguments.of(Named.of("FakeGcsServer", (Starter) () -> FakeGcsServer.builder().start())));
  }

  @ParameterizedTest
  @MethodSource("fakes")
  void uriIsALoopbackHttpBaseThatAnswers(Starter starter) throws Exception {
    try (ProtocolFake<?> fake = starter.start()) {
      URI uri = fake.uri();

      assertThat(uri.getScheme()).isEqualTo("http");
      assertThat(uri.getHost()).isEqualTo("127.0.0.1");
      assertThat(uri.getPort()).isPositive();
      assertThat(uri.getPath()).isEmpty();
      HttpResponse<Void> any =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(uri.resolve("/no-such-path")).build(),
                  HttpResponse.BodyHandlers.discarding());
      assertThat(any.statusCode()).isBetween(200, 599);
    }
  }

  @ParameterizedTest
  @MethodSource("fakes")
  void closeStopsServingAndIsIdempotent(Starter starter) throws Exception {
    ProtocolFake<?> fake = starter.start();
    URI uri = fake.uri();

    fake.close();
    fake.close();

    await().atMost(TestTiming.seconds(5)).until(() -> refuses(uri));
  }

  private static boolean refuses(URI uri) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @ParameterizedTest
  @MethodSource("fakes")
  void twoFakesOfAKindServeOnTwoPorts(Starter starter) throws Exception {
    try (ProtocolFake<?> one = starter.start();
        ProtocolFake<?> two = starter.start()) {
      assertThat(one.uri()).isNotEqualTo(two.uri());
    }
  }

  @ParameterizedTest
  @MethodSource("fakes")
  void aFakeStartsWithNoFaultQueued(Starter starter) throws Exception {
    try (ProtocolFake<?> fake = starter.start()) {
      assertThat(fake.pendingFaults()).isZero();
    }
  }

  @Test
  void startingAFakeSetsNoSystemProperty() throws Exception {
    String saved = System.clearProperty(NO_DELAY); // the build sets it for every test JVM
    try {
      TimeZone.getDefault(); // the JDK records user.timezone on first use (the Date header's)
      Map<Object, Object> before = new HashMap<>(System.getProperties());
      try (FakeLoki loki = FakeLoki.start();
          FakeGcsServer gcs = FakeGcsServer.start();
          FakeSalesforce sf = FakeSalesforce.builder().build()) {
        assertThat(changedSince(before)).isEmpty();
        assertThat(loki.uri()).isNotEqualTo(gcs.uri()).isNotEqualTo(sf.uri());
      }
    } finally {
      if (saved != null) {
        System.setProperty(NO_DELAY, saved);
      }
    }
  }

  /** The properties set, changed or removed since {@code before}, with their values now. */
  private static Map<Object, Object> changedSince(Map<Object, Object> before) {
    Map<Object, Object> now = new HashMap<>(System.getProperties());
    Map<Object, Object> changed = new HashMap<>();
    now.forEach(
        (k, v) -> {
          if (!v.equals(before.get(k))) {
            changed.put(k, v);
          }
        });
    before.keySet().stream()
        .filter(k -> !now.containsKey(k))
        .forEach(k -> changed.put(k, "<removed>"));
    return changed;
  }
}
