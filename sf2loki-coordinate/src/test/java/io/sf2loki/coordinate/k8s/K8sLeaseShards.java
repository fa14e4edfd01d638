package io.sf2loki.coordinate.k8s;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.tck.ShardElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * The shard kit's adapter for k8s_lease: a Lease per shard ({@code sf2loki-leader-<shard>}) and the
 * roster Lease ({@code sf2loki-leader-roster}) on one API server — the in-memory {@link
 * FakeLeaseApiServer}, or a fabric8 mock server given by its URL — and a real state file per shard.
 * Each replica's requests (leases and roster alike) pass one {@link FaultyTransport}, which a kill
 * cuts off for ever.
 */
final class K8sLeaseShards implements ShardElection {

  static final Duration DURATION = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);

  private final SimulatedTime time;
  private final Path dir;
  private final List<String> shards;
  private final int slack;
  private final Function<Interceptor, CoordinationV1Api> clients;
  private final FakeLeaseApiServer fake;
  private final Map<String, SimpleMeterRegistry> metrics = new ConcurrentHashMap<>();

  /** Over an in-memory API server. */
  K8sLeaseShards(Path dir, SimulatedTime time, List<String> shards, int slack) {
    this(dir, time, shards, slack, new FakeLeaseApiServer(), null);
  }

  /** Over the API server at {@code baseUrl} (the fabric8 mock in CRUD mode). */
  K8sLeaseShards(Path dir, SimulatedTime time, List<String> shards, String baseUrl) {
    this(dir, time, shards, 0, null, baseUrl);
  }

  private K8sLeaseShards(
      Path dir,
      SimulatedTime time,
      List<String> shards,
      int slack,
      FakeLeaseApiServer fake,
      String baseUrl) {
    this.dir = dir;
    this.time = time;
    this.shards = List.copyOf(shards);
    this.slack = slack;
    this.fake = fake;
    this.clients =
        fake != null
            ? fake::api
            : faults -> {
              ApiClient client =
                  new ApiClient(new OkHttpClient.Builder().addInterceptor(faults).build());
              client.setBasePath(baseUrl.replaceAll("/$", ""));
              return new CoordinationV1Api(client);
            };
  }

  static K8sLeaseConfig config(String name) {
    return new K8sLeaseConfig("default", name, Optional.empty(), DURATION, RENEW, Optional.empty());
  }

  /** The meters of the replica {@code identity}. */
  SimpleMeterRegistry metrics(String identity) {
    return metrics.computeIfAbsent(identity, i -> new SimpleMeterRegistry());
  }

  @Override
  public List<String> shards() {
    return shards;
  }

  @Override
  public Duration ttl() {
    return DURATION;
  }

  @Override
  public Duration renewInterval() {
    return RENEW;
  }

  @Override
  public int slack() {
    return slack;
  }

  @Override
  public Replica join(String identity) {
    FaultyTransport transport = new FaultyTransport(time);
    CoordinationV1Api api = clients.apply(transport);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), Optional.empty(), metrics(identity), Map.of());
    // Each roster call on a participant thread of its own, so that simulated time stands still
    // while it runs. No wait after a roster conflict: a coordinator waiting (in real time) for
    // the call would hold simulated time still, and a simulated wait would never end.
    ShardQuota quota =
        new ShardQuota(
            identity,
            shards,
            slack,
            new K8sLeaseRoster(
                () -> api,
                config("sf2loki-leader"),
                K8sLeaseRoster.conflictBackoff(new SplittableRandom(identity.hashCode())),
                d -> {},
                env),
            DURATION,
            RENEW,
            env,
            call -> time.start(identity + "/roster", call::run));
    return new Replica() {
      @Override
      public ShardBalance balance() {
        return quota;
      }

      @Override
      public Coordinator coordinator(String shard, Optional<EpochFloor> floor) {
        CoordinatorEnvironment own =
            new CoordinatorEnvironment(
                    time.clock(), time.ticker(), floor, metrics(identity), Map.of())
                .withShard(shard, quota);
        return new K8sLeaseCoordinator(
            api, identity, config("sf2loki-leader-" + shard), own, time::sleep);
      }

      @Override
      public void kill() {
        transport.downForever();
      }
    };
  }

  @Override
  public CheckpointStore openStore(String shard) {
    return StoreKind.fileStore(dir.resolve("state-" + shard + ".json"));
  }

  @Override
  public String describeLease(String shard) {
    if (fake == null) {
      return "(on the mock server)";
    }
    return fake.get("default", "sf2loki-leader-" + shard)
        .map(l -> "holder=" + LeaseBodies.holder(l) + " transitions=" + LeaseBodies.epoch(l))
        .orElse("absent");
  }

  @Override
  public void close() {}
}
