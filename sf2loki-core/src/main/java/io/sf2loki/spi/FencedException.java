package io.sf2loki.spi;

/**
 * A write was refused because its fence is no longer current or its epoch is below the one the
 * store has persisted: a newer leader owns the checkpoints. Nothing was written. Handled as a
 * leadership transition, not a failure (invariant 3).
 *
 * <p>Not a failure for the engine (it resigns the term); as a class, transient ({@code fenced}).
 */
public class FencedException extends StoreException {

  private static final long serialVersionUID = 1L;

  public FencedException(String message) {
    super(message);
  }

  public FencedException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  protected FailureClass defaultClass() {
    return FailureClass.transientFailure("fenced", "");
  }
}
