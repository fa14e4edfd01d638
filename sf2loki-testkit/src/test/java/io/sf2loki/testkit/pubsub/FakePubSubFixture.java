package io.sf2loki.testkit.pubsub;

import com.salesforce.eventbus.protobuf.FetchResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/** A fake Pub/Sub with the standard topics and a raw client of it, closed after each test. */
abstract class FakePubSubFixture {

  static final String LOGIN = FakePubSub.LOGIN;
  FakePubSub fake;
  RawClient client;

  void start(FakePubSub.Builder builder) throws Exception {
    fake = builder.standardTopics().start();
    client = new RawClient(fake, "tok");
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (fake != null) {
      fake.close();
    }
  }

  /** Publishes {@code n} LoginEventStream events. */
  void publishLogins(int n) {
    for (int i = 0; i < n; i++) {
      fake.publish(LOGIN, Map.of("Username", "u" + i + "@example.com", "EventDate", 1_000L + i));
    }
  }

  /** The responses up to the one that brings the events seen to {@code events}. */
  static List<FetchResponse> responsesUntil(RawClient.Stream s, int events)
      throws InterruptedException {
    List<FetchResponse> out = new ArrayList<>();
    int seen = 0;
    while (seen < events) {
      FetchResponse r = s.response();
      out.add(r);
      seen += r.getEventsCount();
    }
    return out;
  }
}
