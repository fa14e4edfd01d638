package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.loki.LokiRejections.TooFarBehind;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Against the texts real Loki answers (ingester and distributor validation). */
class LokiRejectionsTest {

  static final String INGESTER =
      """
      entry with timestamp 2022-10-10 13:25:44 +0000 UTC ignored, reason: 'entry too far behind, \
      entry timestamp is: 2022-10-10T13:25:44Z, oldest acceptable timestamp is: 2022-10-28T23:10:16Z',
      entry with timestamp 2022-10-10 13:25:45.5 +0000 UTC ignored, reason: 'entry too far behind, \
      entry timestamp is: 2022-10-10T13:25:45Z, oldest acceptable timestamp is: 2022-10-28T23:10:17Z',
      user 'fake', total ignored: 2 out of 5 for stream: {event_type="Login", job="sf2loki"}""";

  @Test
  void theIngestersBlockGivesTheStreamAndItsNewestCutoff() {
    assertThat(LokiRejections.tooFarBehind(INGESTER))
        .containsExactly(
            new TooFarBehind(
                StringMap.of("event_type", "Login", "job", "sf2loki"),
                Instant.parse("2022-10-28T23:10:17Z")));
  }

  @Test
  void blocksOfTwoStreamsAreReadApart() {
    String two =
        INGESTER
            + "\n"
            + INGESTER.replace("Login", "API").replace("2022-10-28T23:10:1", "2022-10-27T23:10:1");
    assertThat(LokiRejections.tooFarBehind(two))
        .extracting(TooFarBehind::oldestAcceptable)
        .containsExactly(
            Instant.parse("2022-10-28T23:10:17Z"), Instant.parse("2022-10-27T23:10:17Z"));
  }

  @Test
  void theOlderIngesterFormatNamesTheStreamOnEachLine() {
    String old =
        "entry with timestamp 2022-10-10 13:25:44 +0000 UTC ignored, reason: 'entry too far"
            + " behind, entry timestamp is: 2022-10-10T13:25:44Z, oldest acceptable timestamp is:"
            + " 2022-10-28T23:10:16Z' for stream: {job=\"sf2loki\"},\ntotal ignored: 1 out of 1";
    assertThat(LokiRejections.tooFarBehind(old))
        .containsExactly(
            new TooFarBehind(
                StringMap.of("job", "sf2loki"), Instant.parse("2022-10-28T23:10:16Z")));
  }

  @Test
  void reasonsAreTheTimeRulesLokiNames() {
    assertThat(LokiRejections.reason(INGESTER)).contains(Reason.TOO_FAR_BEHIND);
    assertThat(
            LokiRejections.reason(
                "entry for stream '{job=\"sf2loki\"}' has timestamp too new: 2030-01-01T00:00:00Z"))
        .contains(Reason.TOO_FAR_IN_FUTURE);
    assertThat(
            LokiRejections.reason(
                "entry for stream '{job=\"sf2loki\"}' has timestamp too old: 2020-01-01T00:00:00Z,"
                    + " oldest acceptable timestamp is: 2026-11-24T00:00:00Z"))
        .contains(Reason.TOO_OLD);
    assertThat(LokiRejections.reason("max entry size '262144' bytes exceeded")).isEmpty();
  }

  @Test
  void goQuotedLabelValuesAreUnescaped() {
    assertThat(LokiRejections.labels("{a=\"x\\\"y\", b=\"l1\\nl2\\\\\", c=\"\\u00e9\\x41\"}"))
        .contains(StringMap.of("a", "x\"y", "b", "l1\nl2\\", "c", "éA"));
  }

  @Test
  void unreadableTextTeachesNothing() {
    assertThat(LokiRejections.labels("{a=unquoted}")).isEmpty();
    assertThat(LokiRejections.labels("{a=\"open}")).isEmpty();
    assertThat(LokiRejections.tooFarBehind("entry too far behind, garbled")).isEmpty();
    assertThat(
            LokiRejections.tooFarBehind(
                "reason: 'entry too far behind, entry timestamp is: x, oldest acceptable timestamp"
                    + " is: not-a-time',\nuser 'fake', total ignored: 1 out of 1 for stream: {a=\"b\"}"))
        .isEmpty();
  }

  @Test
  void anOrderedTenantsOutOfOrderAnswerIsTheSameRule() {
    assertThat(
            LokiRejections.reason(
                "entry with timestamp 2022-10-10 13:25:44 +0000 UTC ignored, reason: 'entry out of"
                    + " order' for stream: {job=\"sf2loki\"},\ntotal ignored: 1 out of 1"))
        .contains(Reason.TOO_FAR_BEHIND);
  }

  @Test
  void theShardLabelLokiAddsToABusyStreamIsNotPartOfOurs() {
    assertThat(LokiRejections.labels("{__stream_shard__=\"2\", job=\"sf2loki\"}"))
        .contains(StringMap.of("job", "sf2loki"));
  }

  @Test
  void quotedLabelNamesAndLongEscapesAreRead() {
    assertThat(LokiRejections.labels("{\"odd.name\"=\"\\U0001F600\\a\"}"))
        .contains(StringMap.of("odd.name", "\uD83D\uDE00\u0007"));
  }
}
