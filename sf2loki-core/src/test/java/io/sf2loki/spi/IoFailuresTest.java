package io.sf2loki.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import org.junit.jupiter.api.Test;

/**
 * The errno a JDK file operation failed with decides: EACCES, EPERM, EROFS, ENOTDIR, ENOSPC and
 * EDQUOT are permanent, naming the file and the key to fix; anything else is transient.
 */
class IoFailuresTest {

  private static final String STATE = "/var/lib/sf2loki/state.json";

  private static FailureClass classify(Throwable e) {
    return IoFailures.classify(e, "store", STATE, "state.file.path");
  }

  /** What the JDK throws for errno {@code reason} on {@code file} (UnixException's mapping). */
  private static FileSystemException errno(String file, String reason) {
    return new FileSystemException(file, null, reason);
  }

  @Test
  void permissionDeniedIsPermanentAccessDeniedNamingTheFileAndTheKey() {
    FailureClass c = classify(new AccessDeniedException("/var/lib/sf2loki/.state.json.1.tmp"));

    assertThat(c.kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(c.reason()).isEqualTo("store_access_denied");
    assertThat(c.resource()).isEqualTo("/var/lib/sf2loki/.state.json.1.tmp");
    assertThat(c.fix()).contains("state.file.path");
    assertThat(classify(errno(STATE, "Operation not permitted")).reason())
        .isEqualTo("store_access_denied");
  }

  @Test
  void aReadOnlyFileSystemIsPermanent() {
    assertThat(classify(errno(STATE, "Read-only file system")).reason())
        .isEqualTo("store_read_only");
    assertThat(classify(new ReadOnlyFileSystemException()).reason()).isEqualTo("store_read_only");
  }

  @Test
  void aParentThatIsAFileIsPermanent() {
    assertThat(classify(errno("/var/lib/sf2loki", "Not a directory")).reason())
        .isEqualTo("store_not_a_directory");
    assertThat(classify(new NotDirectoryException("/var/lib")).reason())
        .isEqualTo("store_not_a_directory");
    assertThat(classify(new FileAlreadyExistsException("/var/lib/sf2loki")).reason())
        .as("Files.createDirectories of a directory that is a file")
        .isEqualTo("store_not_a_directory");
  }

  @Test
  void aFullDiskOrQuotaIsPermanent() {
    assertThat(classify(new IOException("No space left on device")).reason())
        .isEqualTo("store_disk_full");
    assertThat(classify(errno(STATE, "Disk quota exceeded")).reason()).isEqualTo("store_disk_full");
  }

  @Test
  void anyOtherIoErrorIsTransientAndNamesTheConfiguredPath() {
    assertThat(classify(errno(STATE, "Input/output error")))
        .isEqualTo(FailureClass.transientFailure("store_unavailable", STATE));
    assertThat(classify(new IOException("Stale file handle")).kind())
        .isEqualTo(FailureKind.TRANSIENT);
  }

  @Test
  void theCauseChainIsSearched() {
    assertThat(
            classify(new RuntimeException("write failed", errno(STATE, "Read-only file system")))
                .reason())
        .isEqualTo("store_read_only");
  }
}
