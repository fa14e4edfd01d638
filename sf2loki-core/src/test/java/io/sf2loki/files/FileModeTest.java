package io.sf2loki.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class FileModeTest {

  @Test
  void parsesOctalModesWithOrWithoutTheLeadingZero() {
    assertThat(FileMode.parse("0660").orElseThrow().permissions())
        .isEqualTo(PosixFilePermissions.fromString("rw-rw----"));
    assertThat(FileMode.parse("640").orElseThrow().permissions())
        .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
    assertThat(FileMode.OWNER_ONLY.octal()).isEqualTo("0600");
  }

  @Test
  void refusesWhatIsNotAnOctalModeOrLocksTheOwnerOut() {
    assertThat(FileMode.parse("rw-------")).isEmpty();
    assertThat(FileMode.parse("0800")).isEmpty();
    assertThat(FileMode.parse("06600")).isEmpty();
    assertThat(FileMode.parse("0400")).isEmpty(); // the owner could no longer rewrite it
    assertThat(FileMode.parse("")).isEmpty();
  }
}
