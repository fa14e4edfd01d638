package io.sf2loki.connect;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The daemon's architecture rules (sf2loki-daemon's {@code arch.Rules}) applied to this module,
 * which the daemon's test cannot see: the connectors use no launcher, store, coordinator or testkit
 * code, and only their composition root ({@link ConnectEnvironment}) takes time, randomness, the
 * environment or threads from the system. Connect's own threads (poll, stop) are Connect's.
 */
class ArchitectureTest {

  static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.sf2loki.connect");
  }

  @Test
  void theConnectorsUseNoLauncherStoreCoordinatorOrTestkitCode() {
    noClasses()
        .that()
        .resideInAPackage("io.sf2loki.connect..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sf2loki.daemon..",
            "io.sf2loki.cli..",
            "io.sf2loki.state..",
            "io.sf2loki.coordinate..",
            "io.sf2loki.testkit..")
        .check(main);
  }

  private static final DescribedPredicate<JavaConstructorCall> A_THREAD_CONSTRUCTOR =
      DescribedPredicate.describe(
          "a constructor of Thread or a subclass",
          call -> call.getTargetOwner().isAssignableTo(Thread.class));

  @Test
  void timeRandomnessTheEnvironmentAndThreadsComeFromTheCompositionRoot() {
    noClasses()
        .that()
        .resideInAPackage("io.sf2loki.connect..")
        .and()
        .doNotHaveFullyQualifiedName(ConnectEnvironment.class.getName())
        .should()
        .callMethod(System.class, "getenv")
        .orShould()
        .callMethod(System.class, "getenv", String.class)
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Clock.class, "systemUTC")
        .orShould()
        .callConstructor(Random.class)
        .orShould()
        .callMethod(RandomGenerator.class, "getDefault")
        .orShould()
        .callConstructorWhere(A_THREAD_CONSTRUCTOR)
        .orShould()
        .callMethod(Executors.class, "defaultThreadFactory")
        .because("tests control time, jitter, the environment and threads through injection")
        .check(main);
  }
}
