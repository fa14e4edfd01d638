package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ElfCheckpointTest {

  private static final String T1 = "2026-06-30T01:00:00.000+0000";
  private static final String T2 = "2026-06-30T02:00:00.000+0000";

  @Test
  void formatsTheCompatibleDocumentWithSortedKeys() {
    ElfCheckpoint cp =
        ElfCheckpoint.initial("2026-06-29T00:00:00.000Z").advance("0ATD00000000001AAA", T1);
    assertThat(cp.format())
        .isEqualTo(
            "{\"ids\": [[\"0ATD00000000001AAA\", \""
                + T1
                + "\"]], \"last_created\": \""
                + T1
                + "\"}");
    assertThat(ElfCheckpoint.parse(cp.format())).isEqualTo(cp);
  }

  @Test
  void theRecordedSchemaHashIsKeptThroughAdvancesAndStoredAfterTheCompatibleKeys() {
    ElfCheckpoint cp =
        ElfCheckpoint.initial("2026-06-29T00:00:00.000Z")
            .withSchema("0123456789abcdef")
            .advance("0ATD00000000001AAA", T1);
    assertThat(cp.schema()).contains("0123456789abcdef");
    assertThat(cp.format())
        .endsWith("\"last_created\": \"" + T1 + "\", \"schema\": \"0123456789abcdef\"}");
    assertThat(ElfCheckpoint.parse(cp.format())).isEqualTo(cp);
  }

  @Test
  void aMissingOrMalformedSchemaReadsAsNoneWithoutCorruptingTheCursor() {
    String base = "{\"ids\": [], \"last_created\": \"" + T1 + "\"";
    assertThat(ElfCheckpoint.parse(base + "}").schema()).isEmpty();
    assertThat(ElfCheckpoint.parse(base + ", \"schema\": 7}").schema()).isEmpty();
    assertThat(ElfCheckpoint.parse(base + ", \"schema\": \"'; DROP\"}").schema()).isEmpty();
  }

  @Test
  void readsAnyKeyOrderAndWhitespace() {
    ElfCheckpoint cp =
        ElfCheckpoint.parse(
            "{ \"last_created\":\""
                + T1
                + "\",\n \"ids\":[[\"0ATD00000000001AAA\",\""
                + T1
                + "\"]] }");
    assertThat(cp.contains("0ATD00000000001AAA", Instant.parse("2026-06-30T01:00:00Z"))).isTrue();
  }

  @Test
  void legacyBareIdMatchesAnyDateAndBareTimestampIsAWatermark() {
    ElfCheckpoint cp =
        ElfCheckpoint.parse(
            "{\"ids\": [\"0ATD00000000001AAA\"], \"last_created\": \"" + T1 + "\"}");
    assertThat(cp.contains("0ATD00000000001AAA", Instant.parse("2030-01-01T00:00:00Z"))).isTrue();
    assertThat(ElfCheckpoint.parse("\"" + T1 + "\"").lastCreated()).isEqualTo(T1);
    assertThat(ElfCheckpoint.parse(T1).seen()).isEmpty();
  }

  @Test
  void regeneratedFileWithNewerCreatedDateIsNotSeen() {
    ElfCheckpoint cp = ElfCheckpoint.initial(T1).advance("0ATD00000000001AAA", T1);
    assertThat(cp.contains("0ATD00000000001AAA", Instant.parse("2026-06-30T02:00:00Z"))).isFalse();
    ElfCheckpoint after = cp.advance("0ATD00000000001AAA", T2);
    assertThat(after.seen()).hasSize(1);
    assertThat(after.lastCreated()).isEqualTo(T2);
  }

  @Test
  void keepsEveryIdAtTheWatermarkPlusTwoHundredOlder() {
    ElfCheckpoint cp = ElfCheckpoint.initial("2026-06-29T00:00:00.000Z");
    Instant base = Instant.parse("2026-06-29T00:00:00Z");
    for (int i = 0; i < 300; i++) {
      cp = cp.advance(String.format("0ATD%011dAAA", i), base.plusSeconds(i).toString());
    }
    for (int i = 0; i < 250; i++) {
      cp = cp.advance(String.format("0ATE%011dAAA", i), T2);
    }
    assertThat(cp.seen()).hasSize(200 + 250);
    assertThat(cp.contains("0ATD00000000299AAA", base.plusSeconds(299))).isTrue();
    assertThat(cp.contains("0ATD00000000000AAA", base)).isFalse();
  }

  @Test
  void rememberRecordsAZeroRowFileWithoutMovingTheWatermark() {
    ElfCheckpoint cp = ElfCheckpoint.initial(T1).remember("0ATD00000000001AAA", T2);
    assertThat(cp.lastCreated()).isEqualTo(T1);
    assertThat(cp.contains("0ATD00000000001AAA", Instant.parse("2026-06-30T02:00:00Z"))).isTrue();
    assertThat(ElfCheckpoint.parse(cp.format())).isEqualTo(cp);
  }

  @Test
  void pairsNewerThanTheWatermarkAreKeptUntilAnAdvancePassesThem() {
    ElfCheckpoint cp = ElfCheckpoint.initial(T1);
    Instant base = Instant.parse("2026-06-30T01:00:01Z");
    for (int i = 0; i < 300; i++) {
      cp = cp.remember(String.format("0ATD%011dAAA", i), base.plusSeconds(i).toString());
    }
    assertThat(cp.seen()).hasSize(300);
    assertThat(cp.contains("0ATD00000000000AAA", base)).isTrue();
    cp = cp.advance("0ATE00000000001AAA", "2026-06-30T03:00:00.000+0000");
    assertThat(cp.seen()).hasSize(200 + 1);
    assertThat(cp.contains("0ATD00000000000AAA", base)).isFalse();
  }

  @Test
  void watermarkNeverMovesBackwards() {
    ElfCheckpoint cp = ElfCheckpoint.initial(T2).advance("0ATD00000000001AAA", T1);
    assertThat(cp.lastCreated()).isEqualTo(T2);
  }

  @Test
  void malformedValuesAreRejectedAsCorrupt() {
    assertThatThrownBy(() -> ElfCheckpoint.parse("{\"ids\": []}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ElfCheckpoint.parse("{\"ids\": 3, \"last_created\": \"" + T1 + "\"}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                ElfCheckpoint.parse(
                    "{\"ids\": [[\"x' OR '1'='1\", \""
                        + T1
                        + "\"]], \"last_created\": \""
                        + T1
                        + "\"}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ElfCheckpoint.parse("not a date"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theCoveredHoursAreKeptThroughAdvancesNeverMoveBackAndComeFirstInTheStoredForm() {
    ElfCheckpoint cp =
        ElfCheckpoint.initial("2026-06-29T00:00:00.000Z")
            .advance("0ATD00000000001AAA", T2)
            .covering(Instant.parse("2026-06-30T01:00:00Z"))
            .covering(Instant.parse("2026-06-30T00:00:00Z"))
            .advance("0ATD00000000002AAA", T2);
    assertThat(cp.coveredUntil()).contains(Instant.parse("2026-06-30T01:00:00Z"));
    assertThat(cp.format()).startsWith("{\"covered_until\": \"2026-06-30T01:00:00.000Z\", \"ids\"");
    assertThat(ElfCheckpoint.parse(cp.format())).isEqualTo(cp);
  }

  @Test
  void aMalformedCoverageIsUnknownNotACorruptCheckpoint() {
    ElfCheckpoint cp =
        ElfCheckpoint.parse(
            "{\"covered_until\": \"yesterday\", \"ids\": [], \"last_created\": \"" + T1 + "\"}");
    assertThat(cp.coveredUntil()).isEmpty();
    assertThat(cp.watermark()).isEqualTo(Instant.parse("2026-06-30T01:00:00Z"));
  }
}
