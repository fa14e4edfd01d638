package io.sf2loki.daemon;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;

/**
 * The configuration of a daemon run against a fake org (client id {@code cid}, secret {@code
 * secret}) and a fake Loki: the EventLogFile source on Login, fast lanes, a file store.
 */
final class OrgRunConfig {

  private OrgRunConfig() {}

  /** The run's HOCON, with {@code more} appended. */
  static String hocon(FakeSalesforce salesforce, FakeLoki loki, Path state, String more) {
    return """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        sources.eventlogfile {
          enabled = true
          event_types = [Login]
          interval = Hourly
          poll_interval = 1s
          lookback = 12h
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        %s
        """
        .formatted(
            salesforce.baseUrl(), loki.baseUri(), state, TestTiming.seconds(5).toMillis(), more);
  }
}
