package io.sf2loki.loki;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS trust for Loki: the JVM trust store, plus the certificates of {@code sink.loki.ca_file}
 * when configured (a private CA must not replace the public roots a Grafana Cloud URL needs).
 */
final class TrustMaterial {

  private TrustMaterial() {}

  /**
   * An SSL context trusting the JVM's roots and {@code caFile}'s certificates.
   *
   * @throws IOException when the CA file cannot be read or holds no certificate
   */
  static SSLContext sslContext(Optional<Path> caFile) throws IOException {
    try {
      X509ExtendedTrustManager jvm = trustManager(null);
      TrustManager tm = jvm;
      if (caFile.isPresent()) {
        tm = new Either(jvm, trustManager(keyStore(caFile.get())));
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, new TrustManager[] {tm}, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS trust for Loki: " + e.getMessage(), e);
    }
  }

  private static KeyStore keyStore(Path caFile) throws IOException, GeneralSecurityException {
    Collection<? extends Certificate> certs;
    try (InputStream in = Files.newInputStream(caFile)) {
      certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (CertificateException e) {
      throw new IOException("sink.loki.ca_file " + caFile + " is not PEM certificates", e);
    }
    if (certs.isEmpty()) {
      throw new IOException("sink.loki.ca_file " + caFile + " holds no certificate");
    }
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    int i = 0;
    for (Certificate c : certs) {
      ks.setCertificateEntry("sf2loki-ca-" + i++, c);
    }
    return ks;
  }

  private static X509ExtendedTrustManager trustManager(KeyStore ks)
      throws GeneralSecurityException {
    TrustManagerFactory f =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    f.init(ks);
    for (TrustManager tm : f.getTrustManagers()) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no X509 trust manager available");
  }

  /** Trusts a chain when either delegate does; the JVM roots are tried first. */
  private static final class Either extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager first;
    private final X509ExtendedTrustManager second;

    Either(X509ExtendedTrustManager first, X509ExtendedTrustManager second) {
      this.first = first;
      this.second = second;
    }

    @FunctionalInterface
    private interface Check {
      void check(X509ExtendedTrustManager tm) throws CertificateException;
    }

    private void either(Check check) throws CertificateException {
      try {
        check.check(first);
      } catch (CertificateException e) {
        try {
          check.check(second);
        } catch (CertificateException e2) {
          e2.addSuppressed(e);
          throw e2;
        }
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String auth)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, auth));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String auth, Socket socket)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, auth, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String auth, SSLEngine engine)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, auth, engine));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String auth)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, auth));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String auth, Socket socket)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, auth, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String auth, SSLEngine engine)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, auth, engine));
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      X509Certificate[] a = first.getAcceptedIssuers();
      X509Certificate[] b = second.getAcceptedIssuers();
      X509Certificate[] all = java.util.Arrays.copyOf(a, a.length + b.length);
      System.arraycopy(b, 0, all, a.length, b.length);
      return all;
    }
  }
}
