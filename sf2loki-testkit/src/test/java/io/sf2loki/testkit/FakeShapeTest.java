package io.sf2loki.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.gcs.FakeGcsServer;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.util.HashMap;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What every protocol fake shares. */
@Timeout(10)
class FakeShapeTest {

  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

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
        assertThat(loki.baseUri()).isNotEqualTo(gcs.endpoint()).isNotEqualTo(sf.baseUrl());
      }
    } finally {
      if (saved != null) {
        System.setProperty(NO_DELAY, saved);
      }
    }
  }
}
