package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.file.FileStoreConfig;
import io.sf2loki.testkit.TestTiming;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second single-instance ({@code noop}) daemon started on a state file another process holds does
 * not stand by forever: it tries a few times, then exits 1 with one ERROR line that names the state
 * file and the fix, and no stack trace.
 */
class SecondNoopDaemonTest {

  @TempDir Path dir;

  @Test
  void aSecondNoopDaemonOnAHeldStateFileExitsOneWithOneLine() throws Exception {
    Path state = dir.resolve("state.json");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path config = dir.resolve("second.conf");
    Files.writeString(
        config,
        """
        salesforce { login_url = "https://acme.my.salesforce.com", auth_mode = client_credentials
                     client_id = x, client_secret = y }
        sink.loki.url = "http://127.0.0.1:9"
        state.file.path = "%s"
        coordinate.type = noop
        service { http_host = "127.0.0.1", http_port = %d
                  failure_backoff_min = 20ms, failure_backoff_max = 80ms }
        """
            .formatted(state, port));
    try (FileCheckpointStore first =
        new FileCheckpointStore(
            FileStoreConfig.of(state),
            new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry()),
            Ticker.SYSTEM)) {
      first.loadAll(); // the running instance holds the state file's lifetime lock
      try (DaemonProcess second =
          DaemonProcess.start("second", config, port, dir.resolve("second.log"))) {
        int code = second.awaitExit(TestTiming.seconds(60));
        String log = second.log();

        assertThat(code).as(log).isEqualTo(1);
        List<String> errors = log.lines().filter(l -> l.contains(" ERROR ")).toList();
        assertThat(errors).as(log).hasSize(1);
        assertThat(errors.get(0))
            .contains("sf2loki stopped after a failure: state file " + state)
            .contains("is locked by another process")
            .contains("(store_locked, permanent, 3 attempts)")
            .contains(
                "fix: stop the other sf2loki instance, or give each instance its own"
                    + " state.file.path");
        assertThat(log.lines().filter(l -> l.contains("store_locked at " + state)).count())
            .as("one WARN line per earlier attempt")
            .isEqualTo(2);
        assertThat(log).doesNotContain("\tat ").doesNotContain("campaigning again in PT");
      }
    }
  }
}
