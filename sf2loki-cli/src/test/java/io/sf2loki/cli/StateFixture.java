package io.sf2loki.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A config file, state file and lease file in one temporary directory. */
final class StateFixture {

  final Path dir;
  final Path state;
  final Path lease;
  final Path config;

  StateFixture(Path dir, String coordinatorBlock) throws IOException {
    this.dir = dir;
    this.state = dir.resolve("state.json");
    this.lease = dir.resolve("leader.lease");
    this.config = dir.resolve("sf2loki.conf");
    Files.writeString(
        config,
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "https://acme.my.salesforce.com"
          client_id = "3MVG9-test"
          client_secret = "not-a-real-secret"
        }
        sink.loki.url = "http://127.0.0.1:3100"
        state { store = file, file.path = "%s" }
        %s
        """
            .formatted(state, coordinatorBlock.replace("LEASE", lease.toString())),
        StandardCharsets.UTF_8);
  }

  static StateFixture noop(Path dir) throws IOException {
    return new StateFixture(dir, "coordinate.type = noop");
  }

  static StateFixture fileLease(Path dir) throws IOException {
    return new StateFixture(
        dir,
        "coordinate { type = file_lease, file_lease { path = \"LEASE\", holder_id = cli-test } }");
  }

  static StateFixture k8sLease(Path dir) throws IOException {
    return new StateFixture(
        dir,
        "coordinate { type = k8s_lease, k8s_lease.kubeconfig = \""
            + dir.resolve("absent-kubeconfig")
            + "\" }");
  }

  void writeState(String json) throws IOException {
    Files.writeString(state, json, StandardCharsets.UTF_8);
  }

  void writeLease(String json) throws IOException {
    Files.writeString(lease, json, StandardCharsets.UTF_8);
  }

  byte[] stateBytes() throws IOException {
    return Files.readAllBytes(state);
  }

  CliRun run(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--config";
    all[1] = config.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    return CliRun.of(all);
  }
}
