package io.sf2loki.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreUnavailableException;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OrgKeyViewTest {

  private static final String MIGRATED = OrgKeyView.MIGRATED;

  private final FakeCheckpointStore own = new FakeCheckpointStore();
  private final AtomicInteger legacyReads = new AtomicInteger();

  private OrgKeyView view(String org, boolean first, Map<String, String> legacy) {
    CheckpointStoreProvider.Factory factory =
        new CheckpointStoreProvider.Factory() {
          @Override
          public String location() {
            return "memory://legacy";
          }

          @Override
          public CheckpointStore create(StoreEnvironment environment) {
            assertThat(environment.singleInstance()).as("a legacy read takes no lock").isFalse();
            legacyReads.incrementAndGet();
            return new FakeCheckpointStore(legacy);
          }
        };
    return OrgKeyView.of(
        own,
        new Shard.Org(org, first, factory),
        new LegacyDocument(
            factory, new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry())));
  }

  private OrgKeyView view(String org) {
    return view(org, false, Map.of());
  }

  @Test
  void commitsAndDeletesPrefixTheOrgsKeys() {
    OrgKeyView prod = view("prod");

    prod.commit(Map.of("eventlogfile:Login", "a", "apexlog", "b"), Fence.NONE);
    prod.delete(Set.of("apexlog"), Fence.NONE);

    assertThat(own.loadAll())
        .containsEntry("org=prod:eventlogfile:Login", "a")
        .doesNotContainKey("org=prod:apexlog")
        .doesNotContainKey("eventlogfile:Login");
  }

  @Test
  void loadsStripThePrefixAndHideEveryOtherKey() {
    own.commit(
        Map.of(
            "org=prod:pubsub:/event/LoginEventStream",
            "AAA=",
            "org=emea:pubsub:/event/LoginEventStream",
            "BBB=",
            "eventlogfile:Login",
            "unprefixed",
            MIGRATED,
            "memory://legacy"),
        Fence.NONE);

    assertThat(view("prod").loadAll())
        .containsEntry("pubsub:/event/LoginEventStream", "AAA=")
        .doesNotContainKeys("eventlogfile:Login", "org=emea:pubsub:/event/LoginEventStream");
    assertThat(view("prod").load("pubsub:/event/LoginEventStream")).contains("AAA=");
  }

  @Test
  void reservedKeysPassThroughUnprefixedSoTheStoresFencingAppliesToTheOrgsDocument() {
    OrgKeyView prod = view("prod");
    prod.commit(Map.of("apexlog", "x"), new EpochFence(7));

    assertThat(own.loadAll()).containsEntry("__fence_epoch__", "7");
    assertThat(prod.loadAll()).containsEntry("__fence_epoch__", "7");
    assertThatThrownBy(() -> prod.commit(Map.of("apexlog", "y"), new EpochFence(6)))
        .isInstanceOf(FencedException.class);
  }

  @Test
  void anOrgWithoutPositionsResumesFromItsPrefixedKeysInTheLegacyDocument() {
    Map<String, String> python =
        Map.of(
            "org=emea:eventlogfile:Login", "emea-login",
            "org=prod:eventlogfile:Login", "prod-login",
            "apexlog", "legacy-apexlog",
            "__fence_epoch__", "9");

    assertThat(view("emea", false, python).loadAll())
        .containsEntry("eventlogfile:Login", "emea-login")
        .doesNotContainKey("apexlog")
        .doesNotContainKey("__fence_epoch__");
  }

  @Test
  void theFirstOrgAlsoInheritsTheUnprefixedKeysThatHaveNoPrefixedTwin() {
    Map<String, String> legacy =
        Map.of(
            "org=prod:eventlogfile:Login", "prefixed",
            "eventlogfile:Login", "unprefixed",
            "apexlog", "single-org",
            "org=emea:apexlog", "emea's",
            "__writer__", "token");

    assertThat(view("prod", true, legacy).loadAll())
        .containsEntry("eventlogfile:Login", "prefixed")
        .containsEntry("apexlog", "single-org")
        .doesNotContainKeys("__writer__", "org=emea:apexlog");
    assertThat(view("emea", false, legacy).loadAll())
        .containsEntry("apexlog", "emea's")
        .doesNotContainKey("eventlogfile:Login");
  }

  @Test
  void theFirstCommitWritesTheInheritedPositionsWithTheMarkerInOneWrite() {
    OrgKeyView prod = view("prod", true, Map.of("apexlog", "old", "eventlogfile:Login", "login"));
    prod.loadAll();

    prod.commit(Map.of("apexlog", "new"), Fence.NONE);

    assertThat(own.commits())
        .containsExactly(
            Map.of(
                "org=prod:apexlog",
                "new",
                "org=prod:eventlogfile:Login",
                "login",
                MIGRATED,
                "memory://legacy"));
  }

  @Test
  void aCommitBeforeAnyLoadStillTakesTheLegacyPositionsOver() {
    OrgKeyView prod = view("prod", true, Map.of("apexlog", "old"));

    prod.commit(Map.of(), Fence.NONE); // the term's epoch stamp on a store that cannot claim

    assertThat(own.loadAll()).containsEntry("org=prod:apexlog", "old").containsKey(MIGRATED);
  }

  @Test
  void onceMigratedTheLegacyDocumentIsNeverReadAgain() {
    OrgKeyView prod = view("prod", true, Map.of("apexlog", "old"));
    prod.loadAll();
    prod.commit(Map.of("apexlog", "new"), Fence.NONE);
    int reads = legacyReads.get();

    prod.reset();
    assertThat(prod.loadAll()).containsEntry("apexlog", "new");
    assertThat(view("prod", true, Map.of("apexlog", "old")).loadAll())
        .containsEntry("apexlog", "new");

    assertThat(legacyReads.get()).isEqualTo(reads);
  }

  @Test
  void aKeyDeletedBeforeTheFirstCommitStaysDeleted() {
    OrgKeyView prod = view("prod", true, Map.of("apexlog", "old", "eventlogfile:Login", "login"));

    prod.delete(Set.of("apexlog"), Fence.NONE);

    assertThat(prod.loadAll())
        .doesNotContainKey("apexlog")
        .containsEntry("eventlogfile:Login", "login");
    assertThat(view("prod", true, Map.of("apexlog", "old")).loadAll()).doesNotContainKey("apexlog");
  }

  @Test
  void aFailedFirstCommitKeepsTheInheritedPositionsForTheRetry() {
    OrgKeyView prod = view("prod", true, Map.of("apexlog", "old"));
    prod.loadAll();
    own.failNextCommit(new StoreUnavailableException("memory://fake: unavailable"));

    assertThatThrownBy(() -> prod.commit(Map.of("eventlogfile:Login", "x"), Fence.NONE))
        .isInstanceOf(StoreUnavailableException.class);
    prod.commit(Map.of("eventlogfile:Login", "x"), Fence.NONE);

    assertThat(own.loadAll()).containsEntry("org=prod:apexlog", "old").containsKey(MIGRATED);
  }

  @Test
  void theOrgsOwnPositionsWinOverTheLegacyOnes() {
    own.commit(Map.of("org=prod:apexlog", "mine"), Fence.NONE); // written without the marker

    assertThat(view("prod", true, Map.of("apexlog", "old", "org=prod:apexlog", "older")).loadAll())
        .containsEntry("apexlog", "mine");
  }

  /** A fence of a current term at {@code epoch}. */
  private record EpochFence(long epoch) implements Fence {
    @Override
    public boolean isCurrent() {
      return true;
    }

    @Override
    public java.util.OptionalLong fencingEpoch() {
      return java.util.OptionalLong.of(epoch);
    }

    @Override
    public String describe() {
      return "epoch " + epoch;
    }
  }
}
