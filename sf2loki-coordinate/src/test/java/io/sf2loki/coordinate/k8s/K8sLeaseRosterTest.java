package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.spi.RosterInfo;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The k8s_lease roster against the fabric8 mock API server in CRUD mode. */
class K8sLeaseRosterTest {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  final K8sLeaseFixture fixture;
  final K8sLeaseRoster roster;

  K8sLeaseRosterTest() throws Exception {
    fixture = new K8sLeaseFixture();
    roster =
        new K8sLeaseRoster(
            () -> fixture.api, fixture.config, Backoff.NONE, d -> {}, fixture.environment());
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  V1Lease stored() throws Exception {
    return fixture.api.readNamespacedLease("sf2loki-leader-roster", "default").execute();
  }

  @Test
  void theRosterIsALeaseNamedAfterTheConfiguredOne() {
    assertThat(roster.location()).isEqualTo("default/sf2loki-leader-roster");
  }

  @Test
  void anAbsentRosterReadsAsEmptyAndTheFirstHeartbeatCreatesIt() throws Exception {
    assertThat(roster.read()).isEqualTo(RosterDocument.EMPTY);
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    assertThat(stored().getMetadata().getAnnotations())
        .containsEntry(K8sLeaseRoster.ANNOTATION, "{\"pod-a\":\"2026-01-01T12:00:30Z\"}");
    assertThat(roster.read().members()).containsOnlyKeys("pod-a");
  }

  @Test
  void heartbeatsUpdateWithTheReadResourceVersionAndPruneExpiredEntries() throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    roster.heartbeat("pod-b", NOW.plusSeconds(30), NOW);
    String before = stored().getMetadata().getResourceVersion();
    roster.heartbeat("pod-b", NOW.plusSeconds(61), NOW.plusSeconds(31));
    assertThat(stored().getMetadata().getResourceVersion()).isNotEqualTo(before);
    assertThat(roster.read().members()).containsOnlyKeys("pod-b");
  }

  @Test
  void leavingRemovesTheEntry() throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    roster.heartbeat("pod-b", NOW.plusSeconds(30), NOW);
    roster.leave("pod-a", NOW);
    assertThat(roster.read().members()).containsOnlyKeys("pod-b");
  }

  @Test
  void aCorruptAnnotationIsATypedErrorAndAHeartbeatRewritesIt() throws Exception {
    fixture
        .api
        .createNamespacedLease(
            "default",
            new V1Lease()
                .apiVersion(LeaseBodies.API_VERSION)
                .kind(LeaseBodies.KIND)
                .metadata(
                    new V1ObjectMeta()
                        .name("sf2loki-leader-roster")
                        .namespace("default")
                        .annotations(Map.of(K8sLeaseRoster.ANNOTATION, "[1, 2]"))))
        .execute();
    assertThatThrownBy(roster::read)
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isTrue());
    assertThatThrownBy(() -> roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW))
        .isInstanceOf(RosterException.class)
        .hasMessageContaining("rewritten");
    assertThat(roster.read().members()).containsOnlyKeys("pod-a");
  }

  @Test
  void inspectingListsTheMembersForLeaseShow() throws Exception {
    roster.heartbeat("pod-a", NOW.plusSeconds(30), NOW);
    RosterInfo info = K8sLeaseRoster.inspect(() -> fixture.api, fixture.config);
    assertThat(info.members()).containsEntry("pod-a", NOW.plusSeconds(30));
    assertThat(info.detail()).isEmpty();
  }

  @Test
  void anUnreachableApiServerIsARosterFailure() {
    fixture.close();
    assertThatThrownBy(roster::read)
        .isInstanceOfSatisfying(RosterException.class, e -> assertThat(e.corrupt()).isFalse())
        .hasMessageContaining("default/sf2loki-leader-roster");
  }
}
