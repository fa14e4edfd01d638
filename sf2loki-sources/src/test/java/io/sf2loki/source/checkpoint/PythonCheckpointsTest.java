package io.sf2loki.source.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.engine.shard.CheckpointCarrier.Carried;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Python sf2loki's values as sf2loki's sources read them. */
class PythonCheckpointsTest {

  private final PythonCheckpoints carrier = new PythonCheckpoints();

  @Test
  void theSharedFormatsAreCarriedAsTheyAre() {
    for (String[] kv :
        new String[][] {
          {"pubsub:/event/LoginEventStream", "AAAAAAAH3sQ="},
          {
            "eventlogfile:Login",
            "{\"ids\": [[\"0ATxx0000000001AAA\", \"2026-07-01T00:00:00.000+0000\"],"
                + " \"0ATxx0000000002AAA\"], \"last_created\": \"2026-07-01T00:00:00.000+0000\"}"
          },
          {"eventlogfile:API", "2026-07-01T00:00:00.000Z"},
          {
            "eventlog_objects:LoginHistory",
            "{\"ids\": [], \"last_ts\": \"2026-07-01T00:00:00.000+0000\"}"
          },
          {"eventlog_objects:SetupAuditTrail", "2026-07-01T00:00:00.000+0000"},
          {
            "apexlog",
            "{\"ids\": [\"07Lxx0000000001AAA\"], \"last_ts\": \"2026-07-01T00:00:00.000+0000\"}"
          },
          {"egress:budget", "{\"date\": \"2026-07-01\", \"bytes\": 42}"},
        }) {
      assertThat(carrier.carry(kv[0], kv[1]))
          .as(kv[0])
          .isEqualTo(new Carried.As(kv[1], Optional.empty()));
    }
  }

  @Test
  void aPythonEventLogObjectCursorBecomesTheTokenFromItsWatermark() {
    Carried carried =
        carrier.carry(
            "eventlog_objects:ApiEventLog",
            "{\"ids\": [\"0Ywxx0000000001AAA\"], \"last_ts\": \"2026-07-01T00:10:00.123+0000\"}");

    assertThat(carried).isInstanceOf(Carried.As.class);
    assertThat(((Carried.As) carried).value())
        .isEqualTo("{\"from\": \"2026-07-01T00:10:00.123Z\", \"v\": 1}");
    assertThat(((Carried.As) carried).conversion()).isPresent();
  }

  @Test
  void anEventLogObjectTokenOfSf2lokisOwnIsCarriedAsItIs() {
    String token = "{\"from\": \"2026-07-01T00:10:00.123Z\", \"v\": 1}";
    assertThat(carrier.carry("eventlog_objects:ApiEventLog", token))
        .isEqualTo(new Carried.As(token, Optional.empty()));
  }

  @Test
  void aValueItsSourceCannotReadIsInvalid() {
    assertThat(carrier.carry("pubsub:/event/X", "AAAA AAA=")).isInstanceOf(Carried.Invalid.class);
    assertThat(carrier.carry("eventlogfile:Login", "{\"ids\": []}"))
        .isInstanceOf(Carried.Invalid.class);
    assertThat(carrier.carry("apexlog", "yesterday")).isInstanceOf(Carried.Invalid.class);
    assertThat(carrier.carry("egress:budget", "{\"bytes\": -1}"))
        .isInstanceOf(Carried.Invalid.class);
  }

  @Test
  void anotherNamespaceIsUnknown() {
    assertThat(carrier.carry("backfill:Hourly:Login", "{}"))
        .isInstanceOf(Carried.UnknownNamespace.class);
  }
}
