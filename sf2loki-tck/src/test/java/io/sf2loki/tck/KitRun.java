package io.sf2loki.tck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** The outcome of running one test class (a kit subclass) in a nested JUnit launcher. */
record KitRun(Set<String> succeeded, Set<String> failed, Set<String> skipped, List<String> why) {

  /** Runs every test of {@code testClass}, which surefire itself never selects. */
  static KitRun of(Class<?> testClass) {
    Set<String> succeeded = new TreeSet<>();
    Set<String> failed = new TreeSet<>();
    Set<String> skipped = new TreeSet<>();
    List<String> why = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionSkipped(TestIdentifier test, String reason) {
            name(test).ifPresent(skipped::add);
          }

          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            name(test)
                .ifPresent(
                    n -> {
                      if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                        succeeded.add(n);
                      } else {
                        failed.add(n);
                        why.add(n + ": " + result.getThrowable().map(Throwable::toString));
                      }
                    });
          }
        };
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
        listener);
    return new KitRun(succeeded, failed, skipped, why);
  }

  private static java.util.Optional<String> name(TestIdentifier test) {
    return test.getSource()
        .filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getMethodName());
  }
}
