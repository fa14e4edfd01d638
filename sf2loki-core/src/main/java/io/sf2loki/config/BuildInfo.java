package io.sf2loki.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The build's version, stamped into the jar at build time ({@code sf2loki_build_info}). */
public final class BuildInfo {

  private BuildInfo() {}

  /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("/io/sf2loki/version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the build version", e);
    }
  }
}
