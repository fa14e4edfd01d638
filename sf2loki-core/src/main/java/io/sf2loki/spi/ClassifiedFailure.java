package io.sf2loki.spi;

/**
 * An exception that knows what it is ({@link FailureClass}): the engine reads it, anywhere in a
 * failure's cause chain, before it guesses from the exception's type. The store, coordinator, sink
 * and token exceptions implement it.
 */
public interface ClassifiedFailure {

  /** Transient or permanent, the reason label, the resource and the fix. */
  FailureClass failureClass();
}
