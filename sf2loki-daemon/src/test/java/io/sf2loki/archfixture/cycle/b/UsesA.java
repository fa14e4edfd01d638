package io.sf2loki.archfixture.cycle.b;

import io.sf2loki.archfixture.cycle.a.UsesB;

/** The other half of a deliberate package cycle, for {@code RulesTest}. */
public final class UsesA {
  public UsesB other;
}
