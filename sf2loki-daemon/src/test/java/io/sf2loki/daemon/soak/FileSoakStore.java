package io.sf2loki.daemon.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The {@code file} store: one document every daemon of the pair reads and replaces. */
final class FileSoakStore implements SoakStore {

  private final Path path;

  FileSoakStore(Path path) {
    this.path = path;
  }

  @Override
  public Kind kind() {
    return Kind.FILE;
  }

  @Override
  public String stateConfig(String writer) {
    return "state { store = file, file.path = \"" + path + "\" }";
  }

  @Override
  public Map<String, String> document() {
    try {
      return SoakStore.parse(Files.readAllBytes(path));
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public List<Write> writes() {
    return List.of();
  }

  @Override
  public void close() {
    // the directory is the caller's
  }
}
