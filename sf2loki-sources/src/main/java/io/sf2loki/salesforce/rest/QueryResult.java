package io.sf2loki.salesforce.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * All records of one SOQL query, every page followed.
 *
 * @param records the records in server order, {@code attributes} included
 * @param pages how many pages were fetched
 * @param totalSize the first page's {@code totalSize}: the rows the query matches, also when it
 *     returns none ({@code SELECT COUNT()})
 */
public record QueryResult(List<ObjectNode> records, int pages, long totalSize) {

  public QueryResult {
    records = List.copyOf(records);
  }

  /** The text of {@code field} in each record, missing values as empty strings. */
  public List<String> texts(String field) {
    return records.stream().map(r -> r.path(field)).map(JsonNode::asText).toList();
  }
}
