package io.sf2loki.state.file;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.CheckpointDocumentContract;
import io.sf2loki.tck.EpochClaimContract;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store and document contracts against the real file system, as writers under a lease
 * coordinator.
 */
class FileCheckpointStoreContractTest extends EpochClaimContract
    implements CheckpointDocumentContract {

  @TempDir Path dir;
  private Path path;
  private int documents;

  @Override
  protected void useNewDocument() {
    path = dir.resolve("doc-" + ++documents).resolve("state.json");
  }

  @Override
  protected CheckpointStore newStore() {
    StoreEnvironment env =
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
    return new FileCheckpointStore(FileStoreConfig.of(path), env, Ticker.SYSTEM);
  }

  @Override
  public void writeRaw(byte[] bytes) throws Exception {
    Files.createDirectories(path.getParent());
    Files.write(path, bytes);
  }

  @Override
  public Optional<byte[]> readRaw() throws Exception {
    try {
      return Optional.of(Files.readAllBytes(path));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }
}
