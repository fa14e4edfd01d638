package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicDiscoveryTest {

  @Test
  void aRefusedRealTimeEventMonitoringStreamNamesThePermissionAndEventManager() {
    assertThat(TopicDiscovery.permission("/event/LoginEventStream"))
        .contains("View Real-Time Event Monitoring Data", "LoginEventStream", "Event Manager");
  }

  @Test
  void aRefusedChangeEventNamesChangeDataCaptureAndReadAccess() {
    assertThat(TopicDiscovery.permission("/data/AccountChangeEvent"))
        .contains("AccountChangeEvent", "Change Data Capture", "View All Data");
  }

  @Test
  void aRefusedPlatformEventNamesReadOnIt() {
    assertThat(TopicDiscovery.permission("/event/Order_Shipped__e"))
        .contains("Read on the platform event Order_Shipped__e");
  }
}
