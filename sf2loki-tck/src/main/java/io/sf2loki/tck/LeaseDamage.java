package io.sf2loki.tck;

import java.util.Locale;
import java.util.Objects;

/**
 * A backend's own way to damage its lease behind the contenders' backs, beyond the deletion and
 * epoch edit every {@link LeaseElection} supports: a truncated file, a {@code kubectl edit} that
 * empties the spec. The property world draws an argument in {@code [0, maxArgument]} for it.
 *
 * @param <E> the election it applies to
 * @param description what it does, a {@link String#format} pattern that may use the argument
 *     ({@code "truncate lease to %d bytes"}); it names the step in a shrunk counterexample
 * @param maxArgument the largest argument, 0 when it takes none
 * @param action the damage
 */
public record LeaseDamage<E extends LeaseElection>(
    String description, int maxArgument, Action<E> action) {

  /** Applies a damage. */
  @FunctionalInterface
  public interface Action<E> {
    /** Damages {@code election}'s lease; {@code argument} is in {@code [0, maxArgument]}. */
    void apply(E election, int argument) throws Exception;
  }

  public LeaseDamage {
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(action, "action");
    if (maxArgument < 0) {
      throw new IllegalArgumentException("maxArgument must be >= 0: " + maxArgument);
    }
  }

  /** A damage without an argument. */
  public static <E extends LeaseElection> LeaseDamage<E> of(String description, Action<E> action) {
    return new LeaseDamage<>(description, 0, action);
  }

  /** The step's text for {@code argument}. */
  public String describe(int argument) {
    return String.format(Locale.ROOT, description, argument);
  }
}
