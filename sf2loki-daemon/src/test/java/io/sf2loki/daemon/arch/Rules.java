package io.sf2loki.daemon.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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
