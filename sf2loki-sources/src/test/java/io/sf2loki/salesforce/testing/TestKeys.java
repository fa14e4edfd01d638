package io.sf2loki.salesforce.testing;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/** One RSA key pair per test JVM (generation is slow), with its PEM forms. */
public final class TestKeys {

  public static final KeyPair PAIR = generate();

  private TestKeys() {}

  /** {@code -----BEGIN PRIVATE KEY-----} (PKCS#8). */
  public static String pkcs8Pem() {
    return pem("PRIVATE KEY", PAIR.getPrivate().getEncoded());
  }

  /** {@code -----BEGIN RSA PRIVATE KEY-----} (PKCS#1), cut out of the PKCS#8 encoding. */
  public static String pkcs1Pem() {
    byte[] pkcs8 = PAIR.getPrivate().getEncoded();
    // 30 82 LL LL | 02 01 00 | 30 0d <rsaEncryption, NULL> | 04 82 LL LL | RSAPrivateKey
    return pem("RSA PRIVATE KEY", Arrays.copyOfRange(pkcs8, 26, pkcs8.length));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static KeyPair generate() {
    try {
      KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
      gen.initialize(2048);
      return gen.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
