package io.sf2loki.daemon.ha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The EventLogFile rows the fake Loki holds, known by {@code EVENT_TYPE|REQUEST_ID} and read
 * incrementally, against the rows an org produced.
 */
final class DeliveredRows {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final FakeLoki loki;
  private final Set<String> seen = new HashSet<>();
  private int linesParsed;

  DeliveredRows(FakeLoki loki) {
    this.loki = loki;
  }

  /** The rows of {@code files}, which {@code org} produced, not (yet) in the fake Loki. */
  synchronized Set<String> missing(FakeSalesforce org, List<LogFileSpec> files) throws IOException {
    List<String> lines = loki.lines();
    for (; linesParsed < lines.size(); linesParsed++) {
      JsonNode row = JSON.readTree(lines.get(linesParsed));
      seen.add(row.path("EVENT_TYPE").asText() + "|" + row.path("REQUEST_ID").asText());
    }
    Set<String> missing = new LinkedHashSet<>();
    for (LogFileSpec file : files) {
      LogFileCsv csv = org.csv(file);
      for (long i = 0; i < file.rows(); i++) {
        Map<String, String> row = csv.expectedRow(i);
        String key = row.get("EVENT_TYPE") + "|" + row.get("REQUEST_ID");
        if (!seen.contains(key)) {
          missing.add(key);
        }
      }
    }
    return missing;
  }
}
