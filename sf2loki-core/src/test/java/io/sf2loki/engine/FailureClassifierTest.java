package io.sf2loki.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.CorruptStateException;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.FailureKind;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import org.junit.jupiter.api.Test;

/** Every failure that reaches the engine gets a class, from the thrower's word or its type. */
class FailureClassifierTest {

  private final FailureClassifier classifier = new FailureClassifier("/var/lib/sf2loki/state.json");

  @Test
  void aClassifiedFailureDeepInTheCauseChainSaysWhatItIs() {
    FailureClass denied = FailureClass.permanent("auth_rejected", "login host", "fix the secret");
    Exception auth = new ClassifiedException(denied);

    FailureClass c = classifier.classify(new RuntimeException("source eventlogfile failed", auth));

    assertThat(c).isEqualTo(denied);
  }

  @Test
  void aStoreFailureThatNamesNoResourceNamesTheEnginesStore() {
    assertThat(classifier.classify(new StoreUnavailableException("timeout")))
        .isEqualTo(
            FailureClass.transientFailure("store_unavailable", "/var/lib/sf2loki/state.json"));
    assertThat(classifier.classify(new CorruptStateException("not JSON")).kind())
        .isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void anIoFailureNobodyClassifiedIsClassifiedByItsErrno() {
    FailureClass c =
        classifier.classify(new UncheckedIOException(new AccessDeniedException("/spool/x.tmp")));

    assertThat(c.reason()).isEqualTo("io_access_denied");
    assertThat(c.resource()).isEqualTo("/spool/x.tmp");
    assertThat(classifier.classify(new IOException("Connection reset")).kind())
        .isEqualTo(FailureKind.TRANSIENT);
  }

  @Test
  void anythingElseIsPermanentAndUnexpected() {
    FailureClass c = classifier.classify(new NullPointerException());

    assertThat(c.reason()).isEqualTo(FailureClass.UNEXPECTED);
    assertThat(c.kind()).isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void aSinkFailureInsideAnotherIsTransient() {
    RetryableSinkException sink = new RetryableSinkException("503", 503, null, null);

    assertThat(classifier.classify(new IllegalStateException("lane broke", sink)))
        .isEqualTo(FailureClass.transientFailure("sink_unavailable", ""));
  }

  private static final class ClassifiedException extends Exception
      implements io.sf2loki.spi.ClassifiedFailure {
    private static final long serialVersionUID = 1L;
    private final transient FailureClass failure;

    ClassifiedException(FailureClass failure) {
      super("token request failed: 400 invalid_client");
      this.failure = failure;
    }

    @Override
    public FailureClass failureClass() {
      return failure;
    }
  }
}
