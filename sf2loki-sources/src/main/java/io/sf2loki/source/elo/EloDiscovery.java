package io.sf2loki.source.elo;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.shape.Glob;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds the org's Event Log Objects: {@code describeGlobal} entries whose name ends in {@code
 * EventLog} and that are queryable, kept by the include globs and not dropped by the exclude globs,
 * each with the fields its {@code describe} lists. The set grows with every Salesforce release, so
 * it is never hard-coded. An org without the feature (no such object) or without the permission
 * (403 / {@code INSUFFICIENT_ACCESS} on describe) yields {@link Unavailable} with one message that
 * names what is missing, for the caller to report once instead of failing every poll.
 */
public final class EloDiscovery {

  /** The permission a user needs to query Event Log Objects. */
  public static final String PERMISSION = "View Event Log Object Data";

  /** GETs a JSON document below {@code /services/data/v{ver}/}. */
  @FunctionalInterface
  public interface DataGet {
    JsonNode get(String suffix) throws SalesforceApiException, AuthException, InterruptedException;
  }

  /** What discovery found. */
  public sealed interface Result permits Found, Unavailable {}

  /**
   * The selected objects, by name.
   *
   * @param objects each object with its fields
   */
  public record Found(List<EloObject> objects) implements Result {
    public Found {
      objects = List.copyOf(objects);
    }
  }

  /**
   * Event Log Objects cannot be read in this org.
   *
   * @param message what is missing and how to get it, for one ERROR line
   */
  public record Unavailable(String message) implements Result {}

  /**
   * One Event Log Object.
   *
   * @param name e.g. {@code LoginEventLog}
   * @param fields its fields, {@code Timestamp} among them
   */
  public record EloObject(String name, List<String> fields) {
    public EloObject {
      fields = List.copyOf(fields);
    }
  }

  private final DataGet get;
  private final List<Glob> include;
  private final List<Glob> exclude;

  public EloDiscovery(DataGet get, List<Glob> include, List<Glob> exclude) {
    this.get = Objects.requireNonNull(get, "get");
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
  }

  /** Lists, filters and describes the org's Event Log Objects. */
  public Result discover() throws SalesforceApiException, AuthException, InterruptedException {
    List<String> names = new ArrayList<>();
    boolean any = false;
    for (JsonNode o : get.get("sobjects").path("sobjects")) {
      String name = o.path("name").asText("");
      if (!name.endsWith("EventLog") || !o.path("queryable").asBoolean(false)) {
        continue;
      }
      any = true;
      if (include.stream().anyMatch(g -> g.matches(name))
          && exclude.stream().noneMatch(g -> g.matches(name))) {
        names.add(name);
      }
    }
    if (!any) {
      return new Unavailable(
          "this org lists no queryable Event Log Objects (*EventLog): they need a Hyperforce org"
              + " with Shield or the Event Monitoring add-on, and a user with the permission \""
              + PERMISSION
              + "\" (or the Event Monitoring User permission set)");
    }
    List<EloObject> out = new ArrayList<>();
    for (String name : names) {
      JsonNode describe;
      try {
        describe = get.get("sobjects/" + name + "/describe");
      } catch (ApiErrorException e) {
        if (e.status() == 403 || e.body().contains("INSUFFICIENT_ACCESS")) {
          return new Unavailable(
              "the Salesforce user may not read "
                  + name
                  + ": grant it the permission \""
                  + PERMISSION
                  + "\" (or the Event Monitoring User permission set)");
        }
        throw e;
      }
      List<String> fields = new ArrayList<>();
      describe.path("fields").forEach(f -> fields.add(f.path("name").asText("")));
      out.add(new EloObject(name, fields));
    }
    return new Found(out);
  }
}
