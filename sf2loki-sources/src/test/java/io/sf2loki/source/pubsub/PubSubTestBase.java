package io.sf2loki.source.pubsub;

import io.sf2loki.testkit.pubsub.FakePubSub;
import org.junit.jupiter.api.AfterEach;

/** The harness of a Pub/Sub source test over the fake's standard topics, closed after each test. */
abstract class PubSubTestBase {

  static final String LOGIN = FakePubSub.LOGIN;
  static final String TOPICS = "topics = [\"/event/LoginEventStream\"]";

  PubSubHarness h;

  /** Starts the harness on {@code fake} with the standard topics added. */
  PubSubHarness harness(FakePubSub.Builder fake) throws Exception {
    h = new PubSubHarness(fake.standardTopics());
    return h;
  }

  @AfterEach
  void closeHarness() throws Exception {
    if (h != null) {
      h.close();
    }
  }
}
