package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ElfSchemaTest {

  private static ElfFile listed(List<String> names, List<String> types) {
    return new ElfFile(
        "0ATD00000000001AAA",
        "Login",
        "Hourly",
        "2026-06-30T01:00:00.000+0000",
        Instant.parse("2026-06-30T01:00:00Z"),
        10,
        1,
        names,
        types,
        Optional.empty());
  }

  private static ElfSchema schema(List<String> header, List<String> names, List<String> types) {
    return ElfSchema.of(header, listed(names, types)).orElseThrow();
  }

  @Test
  void namesComeFromTheHeaderAndTypesFromTheListingByName() {
    ElfSchema s = schema(List.of("B", "A", "C"), List.of("A", "B"), List.of("Id", "Number"));
    assertThat(s.describe()).isEqualTo("B Number, A Id, C");
  }

  @Test
  void aListingWhoseNamesAndTypesDoNotLineUpGivesNoTypes() {
    ElfSchema s = schema(List.of("A", "B"), List.of("A", "B"), List.of("Id"));
    assertThat(s.describe()).isEqualTo("A, B");
  }

  @Test
  void aHeaderlessBodyHasNoSchema() {
    assertThat(ElfSchema.of(List.of(), listed(List.of(), List.of()))).isEmpty();
  }

  @Test
  void theDifferenceListsAddedRemovedAndRetypedColumns() {
    ElfSchema before =
        schema(List.of("A", "B", "C"), List.of("A", "B", "C"), List.of("Id", "Number", "String"));
    ElfSchema after =
        schema(List.of("A", "B", "D"), List.of("A", "B", "D"), List.of("Id", "String", "String"));
    assertThat(after.differencesFrom(before)).containsExactly("+D", "-C", "B Number->String");
    assertThat(before.differencesFrom(before)).isEmpty();
  }

  @Test
  void aTypeOnlyOneSideListsIsNoChange() {
    ElfSchema typed = schema(List.of("A"), List.of("A"), List.of("Id"));
    ElfSchema untyped = schema(List.of("A"), List.of(), List.of());
    assertThat(typed.differencesFrom(untyped)).isEmpty();
  }

  @Test
  void theHashIgnoresColumnOrderButNotNamesOrTypes() {
    ElfSchema ab = schema(List.of("A", "B"), List.of("A", "B"), List.of("Id", "Number"));
    ElfSchema ba = schema(List.of("B", "A"), List.of("A", "B"), List.of("Id", "Number"));
    ElfSchema retyped = schema(List.of("A", "B"), List.of("A", "B"), List.of("Id", "String"));
    assertThat(ab.hash()).hasSize(16).isEqualTo(ba.hash()).isNotEqualTo(retyped.hash());
  }
}
