package io.sf2loki.daemon.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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
   * {@link #FREE_OF_CYCLES} less the edges of core's known cycles (docs/architecture.md): the
   * providers' {@code configure(ConfigReader)} and the helpers binding through it ({@code spi},
   * {@code registry}, {@code shape} → {@code config}), and {@code SourceEnvironment}'s category
   * ownership ({@code spi} → {@code shape}). Deterministic, unlike a frozen cycle rule, whose
   * recorded cycles depend on the order ArchUnit finds them in; any other cycle fails.
   */
  static final ArchRule FREE_OF_CYCLES_BUT_KNOWN_DEBT =
      slices()
          .matching("io.sf2loki.(**)")
          .should()
          .beFreeOfCycles()
          .ignoreDependency(
              resideInAnyPackage("io.sf2loki.spi..", "io.sf2loki.registry..", "io.sf2loki.shape.."),
              resideInAPackage("io.sf2loki.config.."))
          .ignoreDependency(
              resideInAPackage("io.sf2loki.spi.."), resideInAPackage("io.sf2loki.shape.."));

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
