package io.sf2loki.daemon.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
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

  /** The {@link Executors} factories that make their threads with the default thread factory. */
  private static final Set<String> POOLS =
      Set.of(
          "newFixedThreadPool",
          "newCachedThreadPool",
          "newSingleThreadExecutor",
          "newScheduledThreadPool",
          "newSingleThreadScheduledExecutor");

  private static final DescribedPredicate<JavaConstructorCall> A_THREAD_CONSTRUCTOR =
      DescribedPredicate.describe(
          "a constructor of Thread or a subclass",
          call -> call.getTargetOwner().isAssignableTo(Thread.class));

  private static final DescribedPredicate<JavaMethodCall> AMBIENT_THREADS =
      DescribedPredicate.describe(
          "Executors' default thread factory, a pool made with it, or a work-stealing pool",
          call -> {
            if (!call.getTargetOwner().isEquivalentTo(Executors.class)) {
              return false;
            }
            String name = call.getName();
            return name.equals("defaultThreadFactory")
                || name.equals("privilegedThreadFactory")
                || name.equals("newWorkStealingPool")
                || POOLS.contains(name)
                    && call.getTarget().getRawParameterTypes().stream()
                        .noneMatch(t -> t.isAssignableTo(ThreadFactory.class));
          });

  /**
   * Time, randomness, the environment and threads come in through the {@code *Environment} records
   * and constructor parameters; only the composition roots (the launchers) and the testkit's fakes
   * reach for the ambient ones, and every thread is made by a {@link java.util.concurrent
   * .ThreadFactory} — {@code NamedThreadFactory}, the one class that may call {@code new Thread},
   * or one a launcher builds. The tck injects too: its {@code SimulatedTime} takes its factory.
   */
  static final ArchRule NO_AMBIENT_STATE =
      noClasses()
          .that()
          .resideOutsideOfPackages(
              "io.sf2loki.daemon..", "io.sf2loki.cli..", "io.sf2loki.testkit..")
          .and()
          .doNotHaveFullyQualifiedName("io.sf2loki.spi.NamedThreadFactory")
          .should()
          .callMethod(System.class, "getenv")
          .orShould()
          .callMethod(System.class, "getenv", String.class)
          .orShould()
          .callMethod(Clock.class, "systemUTC")
          .orShould()
          .callMethod(Clock.class, "systemDefaultZone")
          .orShould()
          .callConstructor(Random.class)
          .orShould()
          .callConstructor(Random.class, long.class)
          .orShould()
          .callMethod(RandomGenerator.class, "getDefault")
          .orShould()
          .callConstructorWhere(A_THREAD_CONSTRUCTOR)
          .orShould()
          .callMethodWhere(AMBIENT_THREADS)
          .because("tests control time, jitter, the environment and threads through injection");
}
