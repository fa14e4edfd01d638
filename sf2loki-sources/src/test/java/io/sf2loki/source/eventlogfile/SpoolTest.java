package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {

  @TempDir Path dir;

  @Test
  void spoolFilesLeftByACrashAreRemovedAndCountedButRecentOnesAreKept() throws IOException {
    java.time.Instant now = java.time.Instant.parse("2026-07-01T12:00:00Z");
    Path crashed = Files.createFile(dir.resolve("sf2loki-elf-111.csv"));
    Path recent = Files.createFile(dir.resolve("sf2loki-elf-222.csv"));
    Path other = Files.createFile(dir.resolve("unrelated.csv"));
    Files.setLastModifiedTime(
        crashed, java.nio.file.attribute.FileTime.from(now.minus(Spool.STRAY_AGE).minusSeconds(1)));
    Files.setLastModifiedTime(recent, java.nio.file.attribute.FileTime.from(now.minusSeconds(5)));
    Files.setLastModifiedTime(other, java.nio.file.attribute.FileTime.from(now.minusSeconds(9000)));
    var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();

    Spool.removeStrays(Optional.of(dir), now, new io.sf2loki.files.StrayFiles(registry, "spool"));

    assertThat(crashed).doesNotExist();
    assertThat(recent).exists();
    assertThat(other).exists();
    assertThat(registry.counter("sf2loki_stray_files_removed", "kind", "spool").count())
        .isEqualTo(1.0);
  }

  @Test
  void smallBodyStaysInMemory() throws IOException {
    try (Spool s = Spool.fill(new ByteArrayInputStream(new byte[1000]), 4096, Optional.of(dir))) {
      assertThat(s.onDisk()).isFalse();
      assertThat(s.size()).isEqualTo(1000);
      assertThat(s.open().readAllBytes()).hasSize(1000);
    }
  }

  @Test
  void largeBodySpillsToATempFileThatCloseDeletes() throws IOException {
    byte[] body = new byte[300_000];
    body[299_999] = 7;
    Spool s = Spool.fill(new ByteArrayInputStream(body), 65_536, Optional.of(dir));
    assertThat(s.onDisk()).isTrue();
    assertThat(s.memoryBytes()).isZero();
    try (InputStream in = s.open()) {
      assertThat(in.readAllBytes()).isEqualTo(body);
    }
    s.close();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void brokenBodyLeavesNoFileBehind() throws IOException {
    InputStream breaking =
        new InputStream() {
          int n;

          @Override
          public int read() throws IOException {
            if (++n > 200_000) {
              throw new IOException("connection reset");
            }
            return 1;
          }
        };
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Spool.fill(breaking, 65_536, Optional.of(dir)))
        .isInstanceOf(IOException.class);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}
