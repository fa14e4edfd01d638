package io.sf2loki.daemon.arch;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.sf2loki.archfixture.ambient.ReadsTheClock;
import io.sf2loki.archfixture.ambient.StartsARawThread;
import io.sf2loki.archfixture.ambient.TakesAThreadFactory;
import io.sf2loki.archfixture.ambient.UsesTheDefaultThreadFactory;
import io.sf2loki.archfixture.cycle.a.UsesB;
import io.sf2loki.archfixture.cycle.b.UsesA;
import io.sf2loki.archfixture.layers.config.Settings;
import io.sf2loki.archfixture.layers.engine.Runner;
import io.sf2loki.archfixture.layers.model.Value;
import io.sf2loki.archfixture.layers.pipeline.Flow;
import io.sf2loki.archfixture.layers.spi.Contract;
import io.sf2loki.archfixture.layers.spi.ReadsConfig;
import org.junit.jupiter.api.Test;

/** The rules catch what they are for: a test of the rules themselves, on deliberate violations. */
class RulesTest {

  static final String LAYERS = "io.sf2loki.archfixture.layers";

  @Test
  void aDeliberatelyIntroducedPackageCycleFailsTheCycleRule() {
    JavaClasses cycle = new ClassFileImporter().importClasses(UsesA.class, UsesB.class);
    assertThatThrownBy(() -> Rules.FREE_OF_CYCLES.check(cycle))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected");
  }

  @Test
  void layersThatPointOneWayPassTheLayerRule() {
    JavaClasses layered =
        new ClassFileImporter()
            .importClasses(Value.class, Contract.class, Settings.class, Flow.class, Runner.class);
    assertThatCode(() -> Rules.coreLayers(LAYERS).check(layered)).doesNotThrowAnyException();
  }

  @Test
  void anSpiTypeImportingConfigFailsTheLayerRule() {
    JavaClasses layered =
        new ClassFileImporter()
            .importClasses(
                Value.class,
                Contract.class,
                ReadsConfig.class,
                Settings.class,
                Flow.class,
                Runner.class);
    assertThatThrownBy(() -> Rules.coreLayers(LAYERS).check(layered))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(ReadsConfig.class.getName())
        .hasMessageContaining(Settings.class.getName())
        .hasMessageContaining("1 times");
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
