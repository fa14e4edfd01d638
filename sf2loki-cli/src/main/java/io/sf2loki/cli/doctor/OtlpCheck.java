package io.sf2loki.cli.doctor;

import io.sf2loki.config.Urls;
import io.sf2loki.otlp.OtlpReachability;
import io.sf2loki.otlp.OtlpSinkConfig;
import java.io.IOException;

/**
 * {@code otlp}: one {@code ExportLogsServiceRequest} of no records with the configured URL,
 * encoding, compression, headers, credentials, TLS and proxy ({@link OtlpReachability}); it writes
 * no record. A 400 that shows the endpoint does not decompress zstd or lz4 says so.
 */
final class OtlpCheck implements Check {

  private final OtlpSinkConfig config;

  OtlpCheck(OtlpSinkConfig config) {
    this.config = config;
  }

  @Override
  public String name() {
    return "otlp";
  }

  @Override
  public CheckResult run(DoctorContext context) throws InterruptedException {
    String url = Urls.redact(config.logsUrl());
    OtlpReachability.Answer answer;
    try {
      answer = OtlpReachability.emptyExport(config);
    } catch (IOException e) {
      return new CheckResult.Fail(
          "cannot reach " + url + ": " + e.getClass().getSimpleName() + " " + e.getMessage(),
          "check sink.otlp.url, DNS and the network path (sink.otlp.proxy, sink.otlp.ca_file)");
    }
    if (answer.accepted()) {
      return new CheckResult.Pass(url + " accepted an empty export (HTTP " + answer.status() + ")");
    }
    String detail = url + " answered HTTP " + answer.status() + body(answer);
    if (answer.codecRefused()) {
      String codec = config.compression().configName();
      return new CheckResult.Fail(
          url + " does not accept " + codec + " request bodies (HTTP 400" + body(answer) + ")",
          OtlpReachability.codecHint(config.compression()));
    }
    return switch (answer.status()) {
      case 401, 403 ->
          new CheckResult.Fail(
              detail,
              "check sink.otlp.tenant_id, auth_token / bearer_token and headers against what the"
                  + " endpoint expects");
      case 404, 405 ->
          new CheckResult.Fail(
              detail,
              "set sink.otlp.url to the OTLP/HTTP base (http://collector:4318, Loki's"
                  + " http://loki:3100/otlp) or to the full "
                  + OtlpSinkConfig.LOGS_PATH
                  + " URL");
      case 415 ->
          new CheckResult.Fail(
              detail, "the endpoint refuses this encoding: try sink.otlp.encoding = protobuf");
      case 429 -> new CheckResult.Warn(detail, "the endpoint is rate limiting; retry later");
      default ->
          new CheckResult.Fail(
              detail,
              answer.status() >= 500
                  ? "the endpoint is failing; check its health and retry"
                  : "check sink.otlp (url, encoding, headers) against the endpoint in front of you");
    };
  }

  private static String body(OtlpReachability.Answer answer) {
    String b = answer.body().lines().findFirst().orElse("");
    return b.isEmpty() ? "" : ": " + (b.length() > 200 ? b.substring(0, 200) + "…" : b);
  }
}
