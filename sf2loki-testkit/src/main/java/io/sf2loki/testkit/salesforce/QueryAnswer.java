package io.sf2loki.testkit.salesforce;

import java.util.List;
import java.util.Map;

/**
 * What an added query handler answers: records, a {@code SELECT COUNT()} total, or a Salesforce
 * REST error.
 *
 * @param records the records (with {@code attributes}) when {@code status} is 200
 * @param status 200, or the error status
 * @param errorCode the {@code errorCode} of the error array
 * @param message the error message
 * @param count the {@code totalSize} of a {@code COUNT()} answer (no records); -1 otherwise
 */
record QueryAnswer(
    List<Map<String, Object>> records, int status, String errorCode, String message, long count) {

  static QueryAnswer of(List<Map<String, Object>> records) {
    return new QueryAnswer(records, 200, "", "", -1);
  }

  /** {@code {"totalSize": n, "done": true, "records": []}}, as Salesforce answers COUNT(). */
  static QueryAnswer count(long n) {
    return new QueryAnswer(List.of(), 200, "", "", n);
  }

  static QueryAnswer error(int status, String errorCode, String message) {
    return new QueryAnswer(List.of(), status, errorCode, message, -1);
  }

  boolean isError() {
    return status != 200;
  }
}
