package io.sf2loki.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {

  @TempDir Path dir;

  @Test
  void replaceWritesTheWholeDocumentWithTheConfiguredModeAndLeavesNoTempFile() throws Exception {
    Path target = dir.resolve("sub").resolve("state.json");

    DurableFiles.replace(target, "{}".getBytes(StandardCharsets.UTF_8), FileMode.OWNER_ONLY);
    DurableFiles.replace(
        target, "{\"a\": \"1\"}".getBytes(StandardCharsets.UTF_8), FileMode.parse("0660").get());

    assertThat(Files.readString(target)).isEqualTo("{\"a\": \"1\"}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-rw----");
    try (var files = Files.list(target.getParent())) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void removeStraysTakesOnlyTempFilesOfThatTargetOlderThanTheCutoff() throws Exception {
    Path target = dir.resolve("leader.lease");
    Path old = Files.createFile(dir.resolve(".leader.lease.123.tmp"));
    Path fresh = Files.createFile(dir.resolve(".leader.lease.456.tmp"));
    Path other = Files.createFile(dir.resolve(".state.json.789.tmp"));
    Instant now = Instant.parse("2026-07-01T12:00:00Z");
    Files.setLastModifiedTime(old, FileTime.from(now.minusSeconds(120)));
    Files.setLastModifiedTime(fresh, FileTime.from(now.minusSeconds(5)));

    assertThat(DurableFiles.removeStrays(target, now.minusSeconds(30))).containsExactly(old);
    assertThat(fresh).exists();
    assertThat(other).exists();
    assertThat(DurableFiles.removeStrays(target, Instant.MAX)).containsExactly(fresh);
  }
}
