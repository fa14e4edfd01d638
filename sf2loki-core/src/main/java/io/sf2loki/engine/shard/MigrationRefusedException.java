package io.sf2loki.engine.shard;

import java.util.List;

/**
 * A {@link StateMigration} that may not be applied: nothing was written. The message lists every
 * reason, each naming the key or org it is about, and how to proceed.
 */
public class MigrationRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public MigrationRefusedException(String source, List<String> reasons) {
    super(
        "refusing to migrate "
            + source
            + "; nothing was written:\n  "
            + String.join("\n  ", reasons));
  }
}
