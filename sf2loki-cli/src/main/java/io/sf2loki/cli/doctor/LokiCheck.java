package io.sf2loki.cli.doctor;

import io.sf2loki.config.Urls;
import io.sf2loki.loki.LokiReachability;
import io.sf2loki.loki.LokiSinkConfig;
import java.io.IOException;

/**
 * {@code loki}: one push of zero streams with the configured URL, tenant, credentials, TLS and
 * proxy ({@link LokiReachability}); it writes no line. Whether the tenant accepts structured
 * metadata is not proven by an empty push.
 */
final class LokiCheck implements Check {

  private final LokiSinkConfig config;

  LokiCheck(LokiSinkConfig config) {
    this.config = config;
  }

  @Override
  public String name() {
    return "loki";
  }

  @Override
  public CheckResult run(DoctorContext context) throws InterruptedException {
    String url = Urls.redact(config.pushUrl());
    String tenant = config.tenantId().map(t -> " tenant " + t).orElse(" (no tenant)");
    LokiReachability.Answer answer;
    try {
      answer = LokiReachability.emptyPush(config);
    } catch (IOException e) {
      return new CheckResult.Fail(
          "cannot reach " + url + ": " + e.getClass().getSimpleName() + " " + e.getMessage(),
          "check sink.loki.url, DNS and the network path (sink.loki.proxy, sink.loki.ca_file)");
    }
    if (answer.accepted()) {
      return new CheckResult.Pass(
          url + tenant + " accepted an empty push (HTTP " + answer.status() + ")");
    }
    String detail = url + tenant + " answered HTTP " + answer.status() + body(answer);
    return switch (answer.status()) {
      case 401, 403 ->
          new CheckResult.Fail(
              detail,
              "check sink.loki.tenant_id and auth_token / bearer_token; Grafana Cloud wants the"
                  + " instance id as tenant_id and a token with the logs:write scope");
      case 404, 405 ->
          new CheckResult.Fail(
              detail, "set sink.loki.url to Loki's base URL or to its " + LokiSinkConfig.PUSH_PATH);
      case 429 -> new CheckResult.Warn(detail, "Loki is rate limiting this tenant; retry later");
      default ->
          new CheckResult.Fail(
              detail,
              answer.status() >= 500
                  ? "Loki is failing; check its health and retry"
                  : "check sink.loki (url, encoding, tenant_id) against the Loki in front of you");
    };
  }

  private static String body(LokiReachability.Answer answer) {
    String b = answer.body().lines().findFirst().orElse("");
    return b.isEmpty() ? "" : ": " + (b.length() > 200 ? b.substring(0, 200) + "…" : b);
  }
}
