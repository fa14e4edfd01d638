package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.sf2loki.cli.doctor.CheckResult;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease check (holder, state, a write probe) and the Kubernetes RBAC check. */
class DoctorLeaseTest {

  private static final String LEASE_PATH =
      "/apis/coordination.k8s.io/v1/namespaces/default/leases/sf2loki-leader";
  private static final String REVIEWS = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

  @TempDir Path dir;
  DoctorFixture fx;
  KubernetesMockServer server;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            expectations,
            new KubernetesMixedDispatcher(expectations),
            false);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.destroy();
    fx.close();
  }

  private String fileLease(Path lease) {
    return "coordinate { type = file_lease, file_lease { path = \""
        + lease
        + "\", holder_id = doctor-test } }\n";
  }

  /** A file lease of pod-a at epoch 7 expiring at {@code expiresAt}. */
  private Path leaseHeldByPodA(Instant expiresAt) throws java.io.IOException {
    Path lease = dir.resolve("leader.lease");
    Files.writeString(
        lease, "{\"holder\": \"pod-a\", \"expires_at\": \"" + expiresAt + "\", \"epoch\": 7}");
    return lease;
  }

  @Test
  void aHeldFileLeaseNamesItsHolderExpiryAndEpoch() throws Exception {
    Path lease = leaseHeldByPodA(Instant.now().plusSeconds(25));

    JsonNode check = fx.checkOf(fileLease(lease), "lease");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("PASS");
    assertThat(check.path("detail").asText()).contains("held by pod-a until").contains("epoch 7");
    assertThat(dir.resolve(".sf2loki-doctor-coordinator-probe")).doesNotExist();
  }

  @Test
  void anExpiredFileLeaseWarnsThatNoReplicaLeads() throws Exception {
    Path lease = leaseHeldByPodA(Instant.now().minusSeconds(600));

    JsonNode check = fx.checkOf(fileLease(lease), "lease");

    assertThat(check.path("status").asText()).isEqualTo("WARN");
    assertThat(check.path("detail").asText()).contains("no replica is leading");
  }

  @Test
  void aCorruptFileLeaseFails() throws Exception {
    Path lease = dir.resolve("leader.lease");
    Files.writeString(lease, "not a lease");

    JsonNode check = fx.checkOf(fileLease(lease), "lease");

    assertThat(check.path("status").asText()).isEqualTo("FAIL");
    assertThat(check.path("remedy").asText()).contains("move a corrupt one aside");
  }

  @Test
  void aLeaseDirectoryThatCannotBeWrittenFails() throws Exception {
    Path blocker = dir.resolve("not-a-directory");
    Files.writeString(blocker, "a file where the lease directory should be");

    JsonNode check = fx.checkOf(fileLease(blocker.resolve("leader.lease")), "lease");

    assertThat(check.path("status").asText()).isEqualTo("FAIL");
    assertThat(check.path("detail").asText()).contains("cannot write");
    assertThat(check.path("remedy").asText()).contains("lease directory writable");
  }

  private String k8sLease() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster:
            server: %s
        contexts:
        - name: mock
          context:
            cluster: mock
            user: doctor
        current-context: mock
        users:
        - name: doctor
          user:
            token: test-token
        """
            .formatted(server.url("/").replaceAll("/$", "")));
    return "coordinate { type = k8s_lease, k8s_lease.kubeconfig = \"" + kubeconfig + "\" }\n";
  }

  private void leaseHeldBy(String holder) {
    server
        .expect()
        .get()
        .withPath(LEASE_PATH)
        .andReturn(
            200,
            "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":"
                + "\"sf2loki-leader\",\"namespace\":\"default\",\"resourceVersion\":\"5\"},"
                + "\"spec\":{\"holderIdentity\":\""
                + holder
                + "\",\"leaseDurationSeconds\":30,\"renewTime\":\""
                + Instant.now()
                + "\",\"leaseTransitions\":4}}")
        .always();
  }

  /**
   * Answers each SelfSubjectAccessReview: allowed unless {@code denied} holds its verb ({@code
   * update}) or its verb and Lease ({@code update sf2loki-leader-roster}).
   */
  private void rbacDenies(Set<String> denied) {
    server
        .expect()
        .post()
        .withPath(REVIEWS)
        .andReply(
            201,
            request -> {
              // the API server answers with the review it was sent, its status filled in
              ObjectNode review = (ObjectNode) json(request.getUtf8Body());
              JsonNode asked = review.path("spec").path("resourceAttributes");
              String verb = asked.path("verb").asText();
              boolean no =
                  denied.contains(verb)
                      || denied.contains(verb + " " + asked.path("name").asText());
              ObjectNode status = review.putObject("status").put("allowed", !no);
              if (no) {
                status.put("reason", "no RBAC policy matched");
              }
              return review.toString();
            })
        .always();
  }

  private static JsonNode json(String body) {
    try {
      return new ObjectMapper().readTree(body);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aK8sLeaseReportsItsHolderAndEpoch() throws Exception {
    leaseHeldBy("sf2loki-0");
    rbacDenies(Set.of());

    JsonNode check = fx.checkOf(k8sLease(), "lease");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("PASS");
    assertThat(check.path("detail").asText()).contains("held by sf2loki-0").contains("epoch 4");
  }

  @Test
  void rbacGrantingGetUpdateAndCreatePasses() throws Exception {
    leaseHeldBy("sf2loki-0");
    rbacDenies(Set.of());

    JsonNode check = fx.checkOf(k8sLease(), "k8s_rbac");

    assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("PASS");
    assertThat(check.path("detail").asText())
        .isEqualTo("get, update, create on leases/sf2loki-leader in namespace default allowed");
  }

  @Test
  void rbacDenyingUpdateFailsNamingTheVerbAndTheRoleToBind() throws Exception {
    leaseHeldBy("sf2loki-0");
    rbacDenies(Set.of("update", "create"));

    JsonNode check = fx.checkOf(k8sLease(), "k8s_rbac");

    assertThat(check.path("status").asText()).isEqualTo("FAIL");
    assertThat(check.path("detail").asText())
        .startsWith("denied: update (no RBAC policy matched), create");
    assertThat(check.path("remedy").asText()).contains("get, update and create on leases");
  }

  private static final String TWO_ORGS =
      """
      orgs = [
        { name = prod, salesforce {} }
        { name = emea, salesforce {} }
      ]
      """;

  @Test
  void withTwoOrgsRbacReviewsEveryOrgsLeaseAndTheRoster() throws Exception {
    rbacDenies(Set.of());

    CheckResult check = fx.k8sRbacOfShards(k8sLease() + TWO_ORGS);

    assertThat(check)
        .isEqualTo(
            new CheckResult.Pass(
                "get, update, create on leases/sf2loki-leader-prod, leases/sf2loki-leader-emea,"
                    + " leases/sf2loki-leader-roster in namespace default allowed"));
  }

  @Test
  void withTwoOrgsARoleThatDoesNotNameTheRosterFailsNamingIt() throws Exception {
    rbacDenies(Set.of("get sf2loki-leader-roster", "update sf2loki-leader-roster"));

    CheckResult check = fx.k8sRbacOfShards(k8sLease() + TWO_ORGS);

    assertThat(check).isInstanceOf(CheckResult.Fail.class);
    CheckResult.Fail fail = (CheckResult.Fail) check;
    assertThat(fail.detail())
        .startsWith(
            "denied: get leases/sf2loki-leader-roster (no RBAC policy matched),"
                + " update leases/sf2loki-leader-roster (no RBAC policy matched) on ");
    assertThat(fail.fix())
        .contains(
            "resourceNames listing sf2loki-leader-prod, sf2loki-leader-emea, sf2loki-leader-roster");
  }

  @Test
  void doctorOnTwoOrgsChecksEachOrgsLeaseAndReviewsEveryLeaseAndTheRosterOnce() throws Exception {
    rbacDenies(Set.of("update sf2loki-leader-roster"));

    CliRun run = fx.doctor(k8sLease() + TWO_ORGS, "--json");
    JsonNode report = DoctorFixture.report(run);

    List<JsonNode> rbac = new ArrayList<>();
    List<String> leases = new ArrayList<>();
    for (JsonNode c : report.path("checks")) {
      if (c.path("name").asText().equals("k8s_rbac")) {
        rbac.add(c);
      } else if (c.path("name").asText().equals("lease")) {
        leases.add(c.path("org").asText() + ": " + c.path("detail").asText());
      }
    }
    assertThat(rbac).hasSize(1);
    assertThat(rbac.get(0).path("org").isNull()).isTrue();
    assertThat(rbac.get(0).path("detail").asText())
        .startsWith("denied: update leases/sf2loki-leader-roster")
        .contains("leases/sf2loki-leader-prod, leases/sf2loki-leader-emea");
    assertThat(leases)
        .hasSize(2)
        .anyMatch(l -> l.startsWith("prod: ") && l.contains("sf2loki-leader-prod"))
        .anyMatch(l -> l.startsWith("emea: ") && l.contains("sf2loki-leader-emea"));
    assertThat(run.exitCode()).isEqualTo(1);
  }

  @Test
  void withOneOrgRbacReviewsTheConfiguredLeaseAlone() throws Exception {
    rbacDenies(Set.of());

    CheckResult check = fx.k8sRbacOfShards(k8sLease());

    assertThat(check)
        .isEqualTo(
            new CheckResult.Pass(
                "get, update, create on leases/sf2loki-leader in namespace default allowed"));
  }

  @Test
  void rbacIsSkippedForOtherCoordinators() throws Exception {
    JsonNode check = fx.checkOf(fileLease(dir.resolve("leader.lease")), "k8s_rbac");

    assertThat(check.path("status").asText()).isEqualTo("SKIP");
  }
}
