package io.sf2loki.spi;

/**
 * Another process holds the single-instance lock of the state file: another sf2loki instance is
 * probably running against the same state.
 *
 * <p>Whether that is permanent depends on the context, which the thrower says: under {@code noop}
 * the file store holds its lock for a lifetime, so a held lock is another sf2loki running on the
 * same state (permanent); under a lease coordinator it is held only around each write, so a held
 * lock is a frozen ex-leader or a CLI write mid-way (transient). Transient ({@code store_locked})
 * when the thrower does not say.
 */
public class StoreLockedException extends StoreException {

  private static final long serialVersionUID = 1L;

  public StoreLockedException(String message) {
    super(message);
  }

  public StoreLockedException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * @param failure what this failure is; null for this type's default
   */
  public StoreLockedException(String message, Throwable cause, FailureClass failure) {
    super(message, cause, failure);
  }

  @Override
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("store_locked", "");
  }
}
