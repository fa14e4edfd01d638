package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription;
import io.sf2loki.testkit.pubsub.RecordedCommit;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composed engine streaming a managed subscription: a position reaches the server only after
 * Loki accepted it. While Loki holds a push, the server keeps the position before that push's
 * events; once Loki answers, the pipeline commits it locally and the source commits it on the
 * server.
 */
class ManagedSubscribeEndToEndTest {

  private static final String NAME = "Login_Managed";

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakePubSub pubsub;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    pubsub =
        FakePubSub.builder()
            .tokens(salesforce::isValidToken)
            .standardTopics()
            .managedSubscription(
                ManagedEventSubscription.running(
                    NAME, FakePubSub.LOGIN, ManagedEventSubscription.Replay.EARLIEST))
            .start();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    pubsub.close();
    salesforce.close();
  }

  private String config() {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s"
                     client_id = cid, client_secret = secret }
        sources.pubsub { enabled = true, endpoint = "%s", plaintext = true
                         topics = ["%s"], managed_subscriptions { "%s" = %s } }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = 1s
        """
        .formatted(
            salesforce.baseUrl(),
            pubsub.target(),
            FakePubSub.LOGIN,
            FakePubSub.LOGIN,
            NAME,
            loki.baseUri(),
            dir.resolve("state.json"));
  }

  private List<ByteString> publish(int from, int n) {
    List<ByteString> ids = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      ids.add(
          pubsub.publish(
              FakePubSub.LOGIN,
              Map.of("EventIdentifier", "ev-" + i, "EventDate", System.currentTimeMillis())));
    }
    return ids;
  }

  private Optional<ByteString> serverPosition() {
    return pubsub.managedSubscriptions().committed(NAME);
  }

  private boolean committedOnServer(ByteString id) {
    return pubsub.managedSubscriptions().commits().stream()
        .anyMatch(c -> c.accepted() && c.replayId().equals(id));
  }

  @Test
  void theServerPositionMovesOnlyOnceLokiAcceptedThePushHoldingTheEvents() throws Exception {
    ComposedRun run = ComposedRun.start(config());
    try {
      List<ByteString> accepted = publish(0, 3);
      await("the first events are in Loki and committed on the server")
          .atMost(TestTiming.seconds(30))
          .until(() -> serverPosition().equals(Optional.of(accepted.get(2))));
      assertThat(loki.entries()).hasSize(3);

      loki.addFault(Fault.latency(Duration.ofSeconds(3), 1));
      List<ByteString> held = publish(3, 2);
      await("Loki holds the push with the next events")
          .atMost(TestTiming.seconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> loki.pendingFaults() == 0);
      await("the server keeps the position while Loki holds the push")
          .during(Duration.ofMillis(1_500))
          .atMost(TestTiming.seconds(5))
          .until(() -> serverPosition().equals(Optional.of(accepted.get(2))));
      assertThat(held).noneMatch(this::committedOnServer);

      await("once Loki accepted the push its last event is committed on the server")
          .atMost(TestTiming.seconds(30))
          .until(() -> serverPosition().equals(Optional.of(held.get(1))));
      assertThat(loki.entries()).hasSize(5);
      assertThat(pubsub.managedSubscriptions().commits()).allMatch(RecordedCommit::accepted);
      assertThat(pubsub.calls("Subscribe")).isZero();
    } finally {
      run.close();
    }
  }
}
