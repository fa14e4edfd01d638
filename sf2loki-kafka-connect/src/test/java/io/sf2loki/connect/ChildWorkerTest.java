package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crashable worker the crash tests build on: it joins the broker, answers, and dies on -9. */
class ChildWorkerTest {

  @TempDir static Path dir;
  private static ConnectCluster kafka;

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = ConnectCluster.broker(dir);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void aChildWorkerAnswersOnItsOwnPortAndIsGoneAfterKill() throws Exception {
    String group = "child-" + UUID.randomUUID();
    ChildWorker worker =
        ChildWorker.start(
            dir, "w0", kafka.workerProperties(group, false), System.getProperty("java.class.path"));
    try {
      assertThat(worker.send("GET", "connector-plugins", null).body())
          .contains(Sf2LokiSourceConnector.class.getName());
    } finally {
      worker.kill();
    }
    assertThat(worker.isAlive()).isFalse();
  }
}
