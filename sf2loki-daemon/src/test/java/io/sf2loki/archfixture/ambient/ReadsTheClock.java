package io.sf2loki.archfixture.ambient;

import java.time.Clock;
import java.time.Instant;

/** Reads the system clock outside a composition root, for {@code RulesTest}. */
public final class ReadsTheClock {
  public Instant now() {
    return Clock.systemUTC().instant();
  }
}
