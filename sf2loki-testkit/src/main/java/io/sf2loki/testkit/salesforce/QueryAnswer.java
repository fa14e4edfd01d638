package io.sf2loki.testkit.salesforce;

import java.util.List;
import java.util.Map;

/**
 * What an added query handler answers: records, or a Salesforce REST error.
 *
 * @param records the records (with {@code attributes}) when {@code status} is 200
 * @param status 200, or the error status
 * @param errorCode the {@code errorCode} of the error array
 * @param message the error message
 */
record QueryAnswer(
    List<Map<String, Object>> records, int status, String errorCode, String message) {

  static QueryAnswer of(List<Map<String, Object>> records) {
    return new QueryAnswer(records, 200, "", "");
  }

  static QueryAnswer error(int status, String errorCode, String message) {
    return new QueryAnswer(List.of(), status, errorCode, message);
  }

  boolean isError() {
    return status != 200;
  }
}
