package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code coordinate.shard_slack}, the reserved org name and the balance each deployment gets. */
class ShardBalanceConfigTest {

  private static final String TOP =
      """
      salesforce {
        auth_mode = client_credentials
        login_url = "https://prod.my.salesforce.com"
        client_id = app
        client_secret = secret
      }
      sources.eventlogfile { enabled = true, event_types = [Login] }
      sink.loki.url = "http://loki:3100"
      state.file.path = "/var/lib/sf2loki/state.json"
      coordinate.file_lease.path = "/var/lib/sf2loki/leader.lease"
      """;

  private static final String TWO_ORGS =
      """
      orgs = [ { name = prod, salesforce {} }, { name = emea, salesforce {} } ]
      """;

  private static Shards bind(String hocon) {
    ClassLoader loader = ShardBalanceConfigTest.class.getClassLoader();
    return Shards.bind(new ConfigLoader(loader, Map.of()).loadString(hocon), loader);
  }

  private static List<String> problems(String hocon) {
    ConfigInvalidException e = assertThrows(ConfigInvalidException.class, () -> bind(hocon));
    return e.problems().stream().map(ConfigProblem::message).toList();
  }

  private static ShardBalance balance(Shards shards) {
    return shards.balance(
        new CoordinatorEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            Optional.empty(),
            new SimpleMeterRegistry(),
            Map.of()));
  }

  @Test
  void anOrgMayNotBeNamedRosterInAnyCase() {
    assertThat(
            problems(
                TOP
                    + """
                    coordinate.type = file_lease
                    orgs = [ { name = prod, salesforce {} }, { name = Roster, salesforce {} } ]
                    """))
        .anySatisfy(m -> assertThat(m).contains("orgs[1].name ('Roster') is reserved"));
  }

  @Test
  void shardSlackDefaultsToZeroAndMustNotBeNegative() {
    assertThat(bind(TOP + "coordinate.type = file_lease\n" + TWO_ORGS).shardSlack()).isZero();
    assertThat(
            bind(TOP + "coordinate { type = file_lease, shard_slack = 2 }\n" + TWO_ORGS)
                .shardSlack())
        .isEqualTo(2);
    assertThat(problems(TOP + "coordinate { type = file_lease, shard_slack = -1 }\n" + TWO_ORGS))
        .anySatisfy(m -> assertThat(m).contains("coordinate.shard_slack"));
  }

  @Test
  void severalOrgsUnderFileLeaseShareOneQuotaWhoseRosterSitsBesideTheLeases() {
    ShardBalance balance = balance(bind(TOP + "coordinate.type = file_lease\n" + TWO_ORGS));
    assertThat(balance).isInstanceOf(ShardQuota.class);
    assertThat(((ShardQuota) balance).roster()).isEqualTo("/var/lib/sf2loki/leader-roster.lease");
    assertThat(((ShardQuota) balance).cap()).isEqualTo(2); // the roster was never read: alone
  }

  @Test
  void severalOrgsUnderK8sLeaseCountReplicasInTheRosterLease() {
    ShardBalance balance =
        balance(
            bind(
                TOP
                    + "coordinate { type = k8s_lease, k8s_lease.name = sf2loki-leader }\n"
                    + TWO_ORGS));
    assertThat(((ShardQuota) balance).roster()).isEqualTo("default/sf2loki-leader-roster");
  }

  @Test
  void oneOrgANoopCoordinatorAndASingleOrgDeploymentHaveNoQuota() {
    assertThat(balance(bind(TOP + "coordinate.type = file_lease\n")))
        .isSameAs(ShardBalance.UNLIMITED);
    assertThat(
            balance(
                bind(
                    TOP
                        + "coordinate.type = file_lease\n"
                        + "orgs = [ { name = prod, salesforce {} } ]\n")))
        .isSameAs(ShardBalance.UNLIMITED);
    assertThat(balance(bind(TOP + TWO_ORGS))).isSameAs(ShardBalance.UNLIMITED);
  }
}
