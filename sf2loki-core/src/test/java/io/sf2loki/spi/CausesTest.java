package io.sf2loki.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/** The one line of an expected failure names its whole cause chain, without repeats. */
class CausesTest {

  @Test
  void theChainJoinsEachCausesMessage() {
    Exception failure =
        new IllegalStateException(
            "token request failed", new IOException("connect to login host", null));

    assertThat(Causes.chain(failure)).isEqualTo("token request failed: connect to login host");
  }

  @Test
  void aCauseWithoutMessageIsNamedByItsClassAndARepeatedMessageIsLeftOut() {
    IOException inner = new IOException("read timed out", new SocketTimeoutException());
    Exception failure = new RuntimeException("GET /limits failed: read timed out", inner);

    assertThat(Causes.chain(failure))
        .isEqualTo("GET /limits failed: read timed out: SocketTimeoutException");
  }

  @Test
  void theFirstClassifiedFailureInTheChainSaysWhatItIs() {
    FailureClass rejected = FailureClass.permanent("auth_rejected", "login", "fix it");
    OrgLoginException login = new OrgLoginException("login failed", rejected, null);

    assertThat(Causes.classified(new RuntimeException("wrapped", login))).contains(rejected);
    assertThat(Causes.classified(new RuntimeException("plain"))).isEmpty();
  }
}
