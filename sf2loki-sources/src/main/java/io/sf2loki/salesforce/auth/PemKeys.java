package io.sf2loki.salesforce.auth;

import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM RSA private key that signs JWT assertions: PKCS#8 ({@code BEGIN PRIVATE KEY}) or
 * PKCS#1 ({@code BEGIN RSA PRIVATE KEY}). Error messages describe the shape, never the content.
 */
public final class PemKeys {

  private static final Pattern PEM =
      Pattern.compile(
          "-----BEGIN ((?:RSA |ENCRYPTED )?PRIVATE KEY)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
  // AlgorithmIdentifier { rsaEncryption, NULL }
  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private PemKeys() {}

  /**
   * Parses {@code pem}.
   *
   * @throws IllegalArgumentException when it is not an unencrypted PEM RSA private key
   */
  public static PrivateKey parseRsaPrivateKey(String pem) {
    Matcher m = PEM.matcher(pem.strip());
    if (!m.find()) {
      throw new IllegalArgumentException(
          "not a PEM RSA private key (expected -----BEGIN PRIVATE KEY----- or -----BEGIN RSA"
              + " PRIVATE KEY-----)");
    }
    if (m.group(1).startsWith("ENCRYPTED")) {
      throw new IllegalArgumentException(
          "encrypted private keys are not supported; export the key without a passphrase");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(m.group(2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the PEM key's base64 body is corrupt");
    }
    byte[] pkcs8 = m.group(1).startsWith("RSA") ? wrapPkcs1(der) : der;
    try {
      return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the PEM key is not a valid RSA private key (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING { RSAPrivateKey } }. */
  private static byte[] wrapPkcs1(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.write(0x04);
    body.writeBytes(derLength(pkcs1.length));
    body.writeBytes(pkcs1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x30);
    out.writeBytes(derLength(body.size()));
    out.writeBytes(body.toByteArray());
    return out.toByteArray();
  }

  private static byte[] derLength(int length) {
    if (length < 0x80) {
      return new byte[] {(byte) length};
    }
    if (length < 0x100) {
      return new byte[] {(byte) 0x81, (byte) length};
    }
    if (length < 0x10000) {
      return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
    }
    return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
  }
}
