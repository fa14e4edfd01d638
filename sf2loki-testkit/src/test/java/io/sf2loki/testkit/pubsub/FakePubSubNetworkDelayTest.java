package io.sf2loki.testkit.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fake's network delay: a request and the events it buys take a round trip, in order, and an
 * error follows the events sent before it. Only lower bounds are asserted on time: a loaded machine
 * can make a round trip longer, never shorter.
 */
class FakePubSubNetworkDelayTest extends FakePubSubFixture {

  private static final Duration ONE_WAY = Duration.ofMillis(150);

  @Override
  void start(FakePubSub.Builder builder) throws Exception {
    super.start(builder.keepalive(Duration.ofSeconds(30)));
  }

  @Test
  void aTopUpBuysItsEventsOneRoundTripLater() throws Exception {
    start(FakePubSub.builder().networkDelay(ONE_WAY));
    publishLogins(10);
    long subscribed = System.nanoTime();
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 4);
    responsesUntil(s, 4);
    assertThat(Duration.ofNanos(System.nanoTime() - subscribed))
        .isGreaterThanOrEqualTo(ONE_WAY.multipliedBy(2));
    long requested = System.nanoTime();
    s.request(3);
    responsesUntil(s, 3);
    assertThat(Duration.ofNanos(System.nanoTime() - requested))
        .isGreaterThanOrEqualTo(ONE_WAY.multipliedBy(2));
  }

  @Test
  void eventsArriveOnceInTheOrderTheyWereSent() throws Exception {
    start(FakePubSub.builder().networkDelay(Duration.ofMillis(1)));
    publishLogins(1_000);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 100);
    List<ByteString> ids = new ArrayList<>();
    int sinceRequest = 0;
    while (ids.size() < 1_000) {
      FetchResponse r = s.response();
      for (ConsumerEvent e : r.getEventsList()) {
        ids.add(e.getReplayId());
      }
      sinceRequest += r.getEventsCount();
      if (sinceRequest >= 50) {
        s.request(sinceRequest);
        sinceRequest = 0;
      }
    }
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids).isSortedAccordingTo(ByteString.unsignedLexicographicalComparator());
  }

  @Test
  void anErrorFollowsTheEventsSentBeforeIt() throws Exception {
    start(FakePubSub.builder().networkDelay(Duration.ofMillis(20)));
    fake.inject(PubSubFault.stream(PubSubFault.StreamKind.RST_STREAM, 3));
    publishLogins(10);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 10);
    assertThat(responsesUntil(s, 3).stream().mapToInt(FetchResponse::getEventsCount).sum())
        .isEqualTo(3);
    assertThat(s.error().getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void aDelayThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> FakePubSub.builder().networkDelay(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
  }
}
