package io.sf2loki.testkit;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit's {@code @Timeout} with its value scaled by {@link TestTiming}: every test method of the
 * annotated class fails once it has run {@link #seconds()} × the factor (a constant in an
 * annotation cannot scale). The build-wide default timeout still applies on top.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(ScaledTimeout.Interceptor.class)
public @interface ScaledTimeout {

  /** The unscaled deadline of each test method. */
  long seconds();

  /** Runs each test method under {@code assertTimeoutPreemptively} with the scaled deadline. */
  final class Interceptor implements InvocationInterceptor {

    @Override
    public void interceptTestMethod(
        Invocation<Void> invocation,
        ReflectiveInvocationContext<Method> method,
        ExtensionContext context) {
      withDeadline(invocation, context);
    }

    @Override
    public void interceptTestTemplateMethod(
        Invocation<Void> invocation,
        ReflectiveInvocationContext<Method> method,
        ExtensionContext context) {
      withDeadline(invocation, context);
    }

    private static void withDeadline(Invocation<Void> invocation, ExtensionContext context) {
      long seconds =
          AnnotationSupport.findAnnotation(context.getRequiredTestClass(), ScaledTimeout.class)
              .orElseThrow()
              .seconds();
      Duration deadline = TestTiming.seconds(seconds);
      assertTimeoutPreemptively(deadline, invocation::proceed);
    }
  }
}
