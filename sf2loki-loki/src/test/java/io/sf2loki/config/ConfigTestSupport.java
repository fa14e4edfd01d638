package io.sf2loki.config;

import java.util.Map;

/** Loaders over core's own reference.conf with a controlled environment. */
final class ConfigTestSupport {

  static final String VALID =
      """
      salesforce {
        auth_mode = client_credentials
        login_url = "https://acme.my.salesforce.com"
        client_id = "3MVG9-test"
        client_secret = "s3cr3t-value"
      }
      sink.loki.url = "http://localhost:3100"
      """;

  private ConfigTestSupport() {}

  static ConfigLoader loader() {
    return loader(Map.of());
  }

  static ConfigLoader loader(Map<String, String> env) {
    return new ConfigLoader(ConfigTestSupport.class.getClassLoader(), env);
  }
}
