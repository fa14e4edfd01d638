package io.sf2loki.daemon.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.util.Random;
import java.util.random.RandomGenerator;

/** The architecture rules, apart from their test so a test of the rules can apply them too. */
final class Rules {

  private Rules() {}

  /** Every package is a slice: no two packages of main code may depend on each other. */
  static final ArchRule FREE_OF_CYCLES =
      slices().matching("io.sf2loki.(**)").should().beFreeOfCycles();

  /**
   * Core's layers under {@code root}: {@code model} ← {@code spi} ← {@code config} (with {@code
   * registry} and {@code shape}) ← {@code pipeline} ← {@code engine}, each arrow pointing at what
   * may be used. {@code spi} thus uses only {@code model} (and the JDK): providers bind their
   * section through {@code spi.ConfigSection}, never through {@code config}. A parameter so that
   * {@code RulesTest} can apply the same rule to its fixtures.
   */
  static ArchRule coreLayers(String root) {
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("model")
        .definedBy(root + ".model..")
        .layer("spi")
        .definedBy(root + ".spi..")
        .layer("config")
        .definedBy(root + ".config..", root + ".registry..", root + ".shape..")
        .layer("pipeline")
        .definedBy(root + ".pipeline..")
        .layer("engine")
        .definedBy(root + ".engine..")
        .whereLayer("engine")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("pipeline")
        .mayOnlyBeAccessedByLayers("engine")
        .whereLayer("config")
        .mayOnlyBeAccessedByLayers("pipeline", "engine")
        .whereLayer("spi")
        .mayOnlyBeAccessedByLayers("config", "pipeline", "engine");
  }

  /**
   * Time, randomness, the environment and threads come in through the {@code *Environment} records
   * and builders; only the composition roots (the launchers and {@code ConfiguredEngine}) and the
   * testkit's fakes reach for the ambient ones.
   */
  static final ArchRule NO_AMBIENT_STATE =
      noClasses()
          .that()
          .resideOutsideOfPackages(
              "io.sf2loki.daemon..", "io.sf2loki.cli..", "io.sf2loki.testkit..")
          .and()
          .doNotHaveFullyQualifiedName("io.sf2loki.engine.ConfiguredEngine")
          .should()
          .callMethod(System.class, "getenv")
          .orShould()
          .callMethod(System.class, "getenv", String.class)
          .orShould()
          .callMethod(Clock.class, "systemUTC")
          .orShould()
          .callConstructor(Random.class)
          .orShould()
          .callConstructor(Random.class, long.class)
          .orShould()
          .callMethod(RandomGenerator.class, "getDefault")
          .orShould()
          .callConstructor(Thread.class, Runnable.class)
          .orShould()
          .callConstructor(Thread.class, Runnable.class, String.class)
          .because("tests control time, jitter, the environment and threads through injection");
}
