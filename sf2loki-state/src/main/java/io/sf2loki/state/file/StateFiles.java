package io.sf2loki.state.file;

import io.sf2loki.files.DurableFiles;
import io.sf2loki.files.FileMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The blocking file-system calls of the file store, apart from the lock (see {@link
 * SidecarLock.Locker}): a seam, so that tests can make them hang like an unresponsive NFS mount.
 * The store runs every one of them under its deadline ({@link FileStoreIo}).
 */
interface StateFiles {

  /** The local file system: {@link Files#readAllBytes} and {@link DurableFiles#replace}. */
  StateFiles LOCAL =
      new StateFiles() {
        @Override
        public byte[] read(Path path) throws IOException {
          return Files.readAllBytes(path);
        }

        @Override
        public void replace(Path path, byte[] bytes, FileMode mode) throws IOException {
          DurableFiles.replace(path, bytes, mode);
        }
      };

  /**
   * The whole file.
   *
   * @throws java.nio.file.NoSuchFileException the file does not exist
   */
  byte[] read(Path path) throws IOException;

  /** Replaces the file with {@code bytes} atomically and durably, written with {@code mode}. */
  void replace(Path path, byte[] bytes, FileMode mode) throws IOException;
}
