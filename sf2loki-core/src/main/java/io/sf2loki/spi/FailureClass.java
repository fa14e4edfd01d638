package io.sf2loki.spi;

import java.io.Serializable;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a failure is, for the engine and the operator: transient or permanent, a short reason label
 * and, for permanent ones, the resource and a one-line fix.
 *
 * @param kind whether trying again can help
 * @param reason a snake_case label for metrics and {@code /readyz}, prefixed with the part that
 *     failed: {@code store_access_denied}, {@code lease_unavailable}, {@code auth_rejected}, ...
 * @param resource what failed: a path, an {@code s3://} or {@code gs://} URL, a Lease's {@code
 *     namespace/name}, a login host; empty when the thrower does not know it (the engine then names
 *     its own store or coordinator)
 * @param fix one line telling the operator what to do; empty for a transient failure
 */
public record FailureClass(FailureKind kind, String reason, String resource, String fix)
    implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final Pattern REASON = Pattern.compile("[a-z][a-z0-9_]*");

  /** The reason of a failure nothing classified: permanent, a bug or an unforeseen case. */
  public static final String UNEXPECTED = "unexpected";

  public FailureClass {
    Objects.requireNonNull(kind, "kind");
    if (!REASON.matcher(Objects.requireNonNull(reason, "reason")).matches()) {
      throw new IllegalArgumentException("a reason is a snake_case label: '" + reason + "'");
    }
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(fix, "fix");
  }

  /** A failure only an operator can fix. */
  public static FailureClass permanent(String reason, String resource, String fix) {
    return new FailureClass(FailureKind.PERMANENT, reason, resource, fix);
  }

  /** A failure worth trying again later. */
  public static FailureClass transientFailure(String reason, String resource) {
    return new FailureClass(FailureKind.TRANSIENT, reason, resource, "");
  }

  /** True for {@link FailureKind#PERMANENT}. */
  public boolean isPermanent() {
    return kind == FailureKind.PERMANENT;
  }

  /** This class, naming {@code fallback} as the resource when it names none. */
  public FailureClass orResource(String fallback) {
    return resource.isBlank() ? new FailureClass(kind, reason, fallback, fix) : this;
  }
}
