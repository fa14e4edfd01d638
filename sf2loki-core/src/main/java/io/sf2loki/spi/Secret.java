package io.sf2loki.spi;

import java.util.Objects;

/**
 * A credential read from configuration ({@link ConfigSection#optionalSecret(String)}). {@link
 * #toString()} is redacted so that a secret never reaches a log, an exception or CLI output by
 * accident (invariant 8); call {@link #reveal()} only where the value goes on the wire.
 */
public final class Secret {

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /**
   * Wraps a non-blank value.
   *
   * @throws IllegalArgumentException when blank
   */
  public static Secret of(String value) {
    Objects.requireNonNull(value, "value");
    if (value.isBlank()) {
      throw new IllegalArgumentException("a secret must not be blank");
    }
    return new Secret(value);
  }

  /** The secret itself, for the one place that sends it. */
  public String reveal() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret other && value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return "Secret[redacted]";
  }
}
