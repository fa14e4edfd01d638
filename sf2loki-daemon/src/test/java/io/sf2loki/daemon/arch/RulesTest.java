package io.sf2loki.daemon.arch;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.sf2loki.archfixture.ambient.ReadsTheClock;
import io.sf2loki.archfixture.ambient.StartsARawThread;
import io.sf2loki.archfixture.ambient.TakesAThreadFactory;
import io.sf2loki.archfixture.ambient.UsesTheDefaultThreadFactory;
import io.sf2loki.archfixture.cycle.a.UsesB;
import io.sf2loki.archfixture.cycle.b.UsesA;
import org.junit.jupiter.api.Test;

/** The rules catch what they are for: a test of the rules themselves, on deliberate violations. */
class RulesTest {

  @Test
  void aDeliberatelyIntroducedPackageCycleFailsTheCycleRule() {
    JavaClasses cycle = new ClassFileImporter().importClasses(UsesA.class, UsesB.class);
    assertThatThrownBy(() -> Rules.FREE_OF_CYCLES_BUT_KNOWN_DEBT.check(cycle))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected");
  }

  @Test
  void readingTheSystemClockOutsideACompositionRootFailsTheAmbientStateRule() {
    JavaClasses ambient = new ClassFileImporter().importClasses(ReadsTheClock.class);
    assertThatThrownBy(() -> Rules.NO_AMBIENT_STATE.check(ambient))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Clock.systemUTC()");
  }

  @Test
  void aRawThreadOrADefaultThreadFactoryPoolFailsTheAmbientStateRule() {
    JavaClasses ambient =
        new ClassFileImporter()
            .importClasses(StartsARawThread.class, UsesTheDefaultThreadFactory.class);
    assertThatThrownBy(() -> Rules.NO_AMBIENT_STATE.check(ambient))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("(2 times)")
        .hasMessageContaining("StartsARawThread.start")
        .hasMessageContaining("Executors.newFixedThreadPool(int)");
  }

  @Test
  void threadsFromAGivenFactoryPassTheAmbientStateRule() {
    Rules.NO_AMBIENT_STATE.check(new ClassFileImporter().importClasses(TakesAThreadFactory.class));
  }
}
