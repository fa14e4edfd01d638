package io.sf2loki.cli.doctor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.cli.doctor.CheckResult.Status;
import java.io.PrintWriter;

/** Renders a {@link DoctorReport}: an aligned table and a summary line, or one JSON object. */
public final class ReportPrinter {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PrintWriter out;

  public ReportPrinter(PrintWriter out) {
    this.out = out;
  }

  /**
   * One row per check ({@code STATUS name detail}; {@code STATUS [org] name detail} for a check of
   * one org of several), the remedy of a WARN or FAIL indented below it, then {@code N passed, N
   * warnings, N failed, N skipped}.
   */
  public void table(DoctorReport report) {
    int width = report.checks().stream().mapToInt(c -> c.label().length()).max().orElse(4);
    for (CheckReport c : report.checks()) {
      out.printf(
          "%-4s  %-" + width + "s  %s%n", c.result().status(), c.label(), c.result().detail());
      c.result().remedy().ifPresent(r -> out.printf("      %" + width + "s  -> %s%n", "", r));
    }
    out.println();
    out.println(
        report.count(Status.PASS)
            + " passed, "
            + report.count(Status.WARN)
            + " warnings, "
            + report.count(Status.FAIL)
            + " failed, "
            + report.count(Status.SKIP)
            + " skipped");
  }

  /**
   * {@code {"checks":[{"name","status","detail","remedy","duration_ms"}],"summary":{"passed",
   * "warnings","failed","skipped"},"exit_code":N}}; {@code remedy} is null for PASS and SKIP. With
   * orgs every check also has {@code org} after its name: the org's name, null for a shared check.
   */
  public void json(DoctorReport report) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode checks = root.putArray("checks");
    boolean orgs = report.checks().stream().anyMatch(c -> c.org().isPresent());
    for (CheckReport c : report.checks()) {
      ObjectNode node = checks.addObject();
      node.put("name", c.name());
      if (orgs) {
        node.put("org", c.org().orElse(null));
      }
      node.put("status", c.result().status().name());
      node.put("detail", c.result().detail());
      node.put("remedy", c.result().remedy().orElse(null));
      node.put("duration_ms", c.elapsed().toMillis());
    }
    ObjectNode summary = root.putObject("summary");
    summary.put("passed", report.count(Status.PASS));
    summary.put("warnings", report.count(Status.WARN));
    summary.put("failed", report.count(Status.FAIL));
    summary.put("skipped", report.count(Status.SKIP));
    root.put("exit_code", report.exitCode());
    try {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render the doctor report as JSON", e);
    }
  }
}
