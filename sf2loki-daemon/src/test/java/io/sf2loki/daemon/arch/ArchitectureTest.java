package io.sf2loki.daemon.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, enforced (issue 15): module boundaries, core's layers, no package cycles.
 * Runs here because sf2loki-daemon sees every module's main classes. No rule is frozen: any
 * violation fails the build.
 */
class ArchitectureTest {

  static JavaClasses main;

  static final ImportOption MAIN_CODE_ONLY =
      location -> !location.contains("test-classes") && !location.contains("-tests.jar");

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            // main classes of every module: reactor directories or installed jars, no test code
            .withImportOption(MAIN_CODE_ONLY)
            .importPackages("io.sf2loki");
  }

  static final String[] CORE = {
    "io.sf2loki.model..",
    "io.sf2loki.files..",
    "io.sf2loki.spi..",
    "io.sf2loki.config..",
    "io.sf2loki.registry..",
    "io.sf2loki.shape..",
    "io.sf2loki.pipeline..",
    "io.sf2loki.engine.."
  };

  static final String LOKI = "io.sf2loki.loki..";
  static final String OTLP = "io.sf2loki.otlp..";
  static final String STATE = "io.sf2loki.state..";
  static final String COORDINATE = "io.sf2loki.coordinate..";
  static final String[] SOURCES = {"io.sf2loki.source..", "io.sf2loki.salesforce.."};
  static final String[] LAUNCHERS = {"io.sf2loki.daemon..", "io.sf2loki.cli.."};
  static final String TESTKIT = "io.sf2loki.testkit..";

  static String[] concat(String[]... groups) {
    return java.util.Arrays.stream(groups).flatMap(java.util.Arrays::stream).toArray(String[]::new);
  }

  @Test
  void coreDependsOnNoImplementationModuleNorOnTheLokiWireLibraries() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(
                new String[] {LOKI, OTLP, STATE, COORDINATE, TESTKIT},
                SOURCES,
                LAUNCHERS,
                new String[] {
                  "org.apache.hc..",
                  "org.xerial.snappy..",
                  "com.google.protobuf..",
                  "io.opentelemetry.proto.."
                }))
        .check(main);
  }

  @Test
  void theLokiSinkUsesNoOtherImplementationModule() {
    noClasses()
        .that()
        .resideInAPackage(LOKI)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(new String[] {OTLP, STATE, COORDINATE, TESTKIT}, SOURCES, LAUNCHERS))
        .check(main);
  }

  /**
   * The OTLP sink shares the Loki sink's HTTP pieces through its one public facade ({@code
   * HttpSinkSupport}), never its internals, and uses no other implementation module.
   */
  @Test
  void theOtlpSinkUsesOnlyTheLokiSinksSharedPieces() {
    noClasses()
        .that()
        .resideInAPackage(OTLP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(concat(new String[] {STATE, COORDINATE, TESTKIT}, SOURCES, LAUNCHERS))
        .orShould()
        .dependOnClassesThat(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "a class of the Loki sink other than HttpSinkSupport",
                c ->
                    c.getPackageName().equals("io.sf2loki.loki")
                        && !c.getName().startsWith("io.sf2loki.loki.HttpSinkSupport")))
        .check(main);
  }

  @Test
  void theStoresUseNoOtherImplementationModule() {
    noClasses()
        .that()
        .resideInAPackage(STATE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(new String[] {LOKI, OTLP, COORDINATE, TESTKIT}, SOURCES, LAUNCHERS))
        .check(main);
  }

  @Test
  void theCoordinatorsUseNoOtherImplementationModule() {
    noClasses()
        .that()
        .resideInAPackage(COORDINATE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(concat(new String[] {LOKI, OTLP, STATE, TESTKIT}, SOURCES, LAUNCHERS))
        .check(main);
  }

  @Test
  void theSourcesUseNoOtherImplementationModule() {
    noClasses()
        .that()
        .resideInAnyPackage(SOURCES)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(new String[] {LOKI, OTLP, STATE, COORDINATE, TESTKIT}, LAUNCHERS))
        .check(main);
  }

  @Test
  void theTestkitDependsOnNothingOfOurs() {
    noClasses()
        .that()
        .resideInAPackage(TESTKIT)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            concat(CORE, new String[] {LOKI, OTLP, STATE, COORDINATE}, SOURCES, LAUNCHERS))
        .check(main);
  }

  @Test
  void coreKeepsItsLayers() {
    Rules.coreLayers("io.sf2loki").check(main);
  }

  @Test
  void noPackageCyclesInMainCode() {
    Rules.FREE_OF_CYCLES.check(main);
  }

  @Test
  void timeRandomnessTheEnvironmentAndThreadsComeFromTheCompositionRoots() {
    Rules.NO_AMBIENT_STATE.check(main);
  }
}
