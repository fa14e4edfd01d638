package io.sf2loki.cli.doctor;

import java.util.Objects;
import java.util.Optional;

/** What one check found: a closed set of four outcomes. */
public sealed interface CheckResult
    permits CheckResult.Pass, CheckResult.Warn, CheckResult.Fail, CheckResult.Skip {

  /** The outcome names, as printed. */
  enum Status {
    PASS,
    WARN,
    FAIL,
    SKIP
  }

  /** Which outcome. */
  Status status();

  /** One line: what was found (never a secret). */
  String detail();

  /** One line: what to change; empty for PASS and SKIP. */
  default Optional<String> remedy() {
    return Optional.empty();
  }

  /** The deployment has what this check looks for. */
  record Pass(String detail) implements CheckResult {
    public Pass {
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public Status status() {
      return Status.PASS;
    }
  }

  /** It works, but something will bite later. */
  record Warn(String detail, String fix) implements CheckResult {
    public Warn {
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(fix, "fix");
    }

    @Override
    public Status status() {
      return Status.WARN;
    }

    @Override
    public Optional<String> remedy() {
      return Optional.of(fix);
    }
  }

  /** The deployment will not work until {@code fix} is done. */
  record Fail(String detail, String fix) implements CheckResult {
    public Fail {
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(fix, "fix");
    }

    @Override
    public Status status() {
      return Status.FAIL;
    }

    @Override
    public Optional<String> remedy() {
      return Optional.of(fix);
    }
  }

  /** The check does not apply, or a check it needs did not pass. */
  record Skip(String detail) implements CheckResult {
    public Skip {
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public Status status() {
      return Status.SKIP;
    }
  }
}
