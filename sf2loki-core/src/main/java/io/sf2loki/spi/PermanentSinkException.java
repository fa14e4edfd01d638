package io.sf2loki.spi;

/**
 * The batch (usually a single entry left after bisection) can never be accepted as it is: Loki
 * answered 400 or 413. The caller counts the entries as dropped with {@link #reason()} and may then
 * commit past them — a deliberate, counted drop (invariant 1).
 */
public class PermanentSinkException extends SinkException {

  private static final long serialVersionUID = 1L;

  private final String reason;

  /**
   * @param reason the drop reason label: {@code bad_request}, {@code oversized_413}, ...
   */
  public PermanentSinkException(String message, String reason, int status, Throwable cause) {
    super(message, status, cause);
    this.reason = reason;
  }

  /** The {@code reason} label for {@code sf2loki_loki_entries_dropped}. */
  public String reason() {
    return reason;
  }

  /** Permanent ({@code sink_rejected}): the sink refuses the data as it is. */
  @Override
  public FailureClass failureClass() {
    return FailureClass.permanent(
        "sink_rejected",
        "",
        "the sink refuses this data as it is (" + reason + "): see the message");
  }
}
