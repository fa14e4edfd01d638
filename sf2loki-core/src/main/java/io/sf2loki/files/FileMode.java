package io.sf2loki.files;

import io.sf2loki.spi.ConfigSection;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The permission bits a durable file is created with, whatever the umask: {@code 0600} by default
 * (invariant 8), {@code 0660} or {@code 0640} for replicas that run under different UIDs sharing a
 * group. Written as an octal string, as {@code chmod} takes it.
 *
 * @param permissions the POSIX permissions
 */
public record FileMode(Set<PosixFilePermission> permissions) {

  private static final Pattern OCTAL = Pattern.compile("0?[0-7]{3}");
  private static final PosixFilePermission[] BITS = {
    PosixFilePermission.OTHERS_EXECUTE,
    PosixFilePermission.OTHERS_WRITE,
    PosixFilePermission.OTHERS_READ,
    PosixFilePermission.GROUP_EXECUTE,
    PosixFilePermission.GROUP_WRITE,
    PosixFilePermission.GROUP_READ,
    PosixFilePermission.OWNER_EXECUTE,
    PosixFilePermission.OWNER_WRITE,
    PosixFilePermission.OWNER_READ
  };

  /** {@code 0600}: read and write for the owner only. */
  public static final FileMode OWNER_ONLY = parse("0600").orElseThrow();

  public FileMode {
    Objects.requireNonNull(permissions, "permissions");
    permissions =
        permissions.isEmpty()
            ? Set.of()
            : Set.copyOf(EnumSet.copyOf(permissions)); // immutable, no nulls
    if (!permissions.contains(PosixFilePermission.OWNER_READ)
        || !permissions.contains(PosixFilePermission.OWNER_WRITE)) {
      throw new IllegalArgumentException(
          "a durable file must stay readable and writable by its owner: " + octal(permissions));
    }
  }

  /**
   * Parses {@code 600}, {@code 0600}, {@code 0660}, ...: three octal digits, optionally after a
   * leading {@code 0}, keeping the owner's read and write bits.
   *
   * @return empty when {@code text} is not such a mode
   */
  public static Optional<FileMode> parse(String text) {
    if (text == null || !OCTAL.matcher(text.trim()).matches()) {
      return Optional.empty();
    }
    int bits = Integer.parseInt(text.trim(), 8);
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    for (int i = 0; i < BITS.length; i++) {
      if ((bits & (1 << i)) != 0) {
        permissions.add(BITS[i]);
      }
    }
    if (!permissions.contains(PosixFilePermission.OWNER_READ)
        || !permissions.contains(PosixFilePermission.OWNER_WRITE)) {
      return Optional.empty();
    }
    return Optional.of(new FileMode(permissions));
  }

  /**
   * Binds {@code key} of {@code section} ({@code state.file.mode}, {@code
   * coordinate.file_lease.mode}), recording a problem and answering {@link #OWNER_ONLY} when it is
   * not a mode {@link #parse} accepts.
   */
  public static FileMode bind(ConfigSection section, String key) {
    String raw = section.string(key);
    return parse(raw)
        .orElseGet(
            () -> {
              section.problem(
                  key,
                  section.path(key)
                      + " ("
                      + raw
                      + ") must be an octal permission string such as \"0600\" or \"0660\""
                      + " that keeps the owner's read and write bits");
              return OWNER_ONLY;
            });
  }

  /** The four-digit octal form, {@code 0600}. */
  public String octal() {
    return octal(permissions);
  }

  private static String octal(Set<PosixFilePermission> permissions) {
    int bits = 0;
    for (int i = 0; i < BITS.length; i++) {
      if (permissions.contains(BITS[i])) {
        bits |= 1 << i;
      }
    }
    return String.format("0%03o", bits);
  }

  @Override
  public String toString() {
    return octal();
  }
}
