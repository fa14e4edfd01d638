package io.sf2loki.cli.migrate;

import static io.sf2loki.cli.migrate.PythonType.DURATION;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Optional;

/** {@code service.*}: log level and format, the health address, shutdown and readiness. */
final class ServiceSection {

  private ServiceSection() {}

  static void convert(Optional<PythonSection> section, Conversion conversion) {
    PythonSection service =
        section.orElseGet(() -> new PythonSection("service", new LinkedHashMap<>(), conversion));
    service.string("log_level").ifPresent(level -> logLevel(service, level));
    if (service.has("log_format")) {
      service
          .string("log_format")
          .ifPresent(
              f -> service.set("log_format", "service.log_format", f.toLowerCase(Locale.ROOT)));
    } else {
      conversion.set("service.log_format", "json");
      conversion.note(
          service.key("log_format"), Kind.DEFAULT_WRITTEN, "Python logs JSON, ours text: json");
    }
    service.string("health_addr").ifPresent(address -> healthAddress(service, address));
    service.copy("shutdown_grace", DURATION, "service.shutdown_grace");
    service.copy("unready_after_sink_failing", DURATION, "service.unready_after_sink_failing");
    service.drop("telemetry", "OTLP metrics push is not built yet; scrape /metrics instead");
    service.finish();
  }

  private static void logLevel(PythonSection service, String level) {
    String ours =
        switch (level.strip().toLowerCase(Locale.ROOT)) {
          case "debug" -> "DEBUG";
          case "info" -> "INFO";
          case "warning", "warn" -> "WARN";
          case "error", "critical" -> "ERROR";
          default -> null;
        };
    if (ours == null) {
      service
          .conversion()
          .problem(
              service.key("log_level"),
              "must be debug, info, warning, warn, error or critical, not " + level);
      return;
    }
    service.set("log_level", "service.log_level", ours);
  }

  /** Python's {@code host:port}, split at the last colon; an empty host is every interface. */
  private static void healthAddress(PythonSection service, String address) {
    int colon = address.lastIndexOf(':');
    String port = colon < 0 ? "" : address.substring(colon + 1);
    if (!port.matches("\\d{1,5}")) {
      service.conversion().problem(service.key("health_addr"), "must be host:port, not " + address);
      return;
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    service.conversion().set("service.http_host", host.isEmpty() ? "0.0.0.0" : host);
    service.conversion().set("service.http_port", Long.parseLong(port));
    service
        .conversion()
        .mapped(service.key("health_addr"), "service.http_host", "service.http_port");
    service
        .conversion()
        .note(
            service.key("health_addr"),
            Kind.DIFFERENT_SEMANTICS,
            "service.http_host and http_port; /metrics is served there too");
  }
}
