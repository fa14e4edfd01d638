package io.sf2loki.salesforce.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.testing.TestKeys;
import org.junit.jupiter.api.Test;

class PemKeysTest {

  @Test
  void readsPkcs8AndPkcs1FormsOfTheSameKey() {
    assertThat(PemKeys.parseRsaPrivateKey(TestKeys.pkcs1Pem()).getEncoded())
        .isEqualTo(PemKeys.parseRsaPrivateKey(TestKeys.pkcs8Pem()).getEncoded());
  }

  @Test
  void rejectsTextThatIsNotAPemKeyWithoutEchoingIt() {
    assertThatThrownBy(() -> PemKeys.parseRsaPrivateKey("hunter2-not-a-key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BEGIN PRIVATE KEY")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void rejectsEncryptedKeys() {
    String pem = TestKeys.pkcs8Pem().replace("PRIVATE KEY-----", "ENCRYPTED PRIVATE KEY-----");
    assertThatThrownBy(() -> PemKeys.parseRsaPrivateKey(pem)).hasMessageContaining("encrypted");
  }

  @Test
  void rejectsACorruptKeyBody() {
    String pem = TestKeys.pkcs8Pem().replaceFirst("\n[A-Za-z0-9+/]{10}", "\nAAAAAAAAAA");
    assertThatThrownBy(() -> PemKeys.parseRsaPrivateKey(pem))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
