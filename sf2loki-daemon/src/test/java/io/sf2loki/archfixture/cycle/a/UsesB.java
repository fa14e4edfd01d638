package io.sf2loki.archfixture.cycle.a;

import io.sf2loki.archfixture.cycle.b.UsesA;

/** Half of a deliberate package cycle, for {@code RulesTest}. */
public final class UsesB {
  public UsesA other;
}
