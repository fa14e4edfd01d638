package io.sf2loki.spi;

/**
 * The stored document (or its reserved epoch) cannot be parsed. The bytes were left untouched; the
 * message names the location and the recovery step (move the file aside, or repair with {@code
 * sf2loki-cli state set --force}).
 *
 * <p>Permanent ({@code store_corrupt}).
 */
public class CorruptStateException extends StoreException {

  private static final long serialVersionUID = 1L;

  public CorruptStateException(String message) {
    super(message);
  }

  public CorruptStateException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  protected FailureClass defaultClass() {
    return FailureClass.permanent(
        "store_corrupt",
        "",
        "repair the document as the message says (docs/deployment/state.md, Corruption recovery)");
  }
}
