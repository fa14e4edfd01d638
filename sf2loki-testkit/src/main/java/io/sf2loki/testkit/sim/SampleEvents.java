package io.sf2loki.testkit.sim;

import io.sf2loki.testkit.pubsub.FakePubSub;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Realistic Pub/Sub events for the simulator's topics, from a seed: logins on {@code
 * /event/LoginEventStream} (one in six failing), orders shipped on the platform event {@code
 * /event/Order_Shipped__e}, and Account creations and updates on {@code /data/AccountChangeEvent}
 * with their {@code changedFields} bitmaps (an update of a billing city names the compound field
 * and its component). The same seed gives the same sequence of topics and fields; only the date
 * fields follow the time passed in. Not thread-safe.
 */
final class SampleEvents {

  /** One event: its topic and fields as {@link FakePubSub#publish} takes them. */
  record Event(String topic, Map<String, Object> fields) {}

  private static final List<String> USERS =
      List.of("alice", "bob", "chandra", "dmitri", "eun-ji", "farah", "integration");
  private static final List<String> BROWSERS =
      List.of("Chrome 126", "Firefox 127", "Safari 17", "Edge 126", "Unknown");
  private static final List<String> APPLICATIONS =
      List.of("Browser", "Salesforce for iOS", "Salesforce for Android", "Data Loader");
  private static final List<String> FAILURES =
      List.of("Invalid Password", "Failed: Computer activation required", "Locked out");
  private static final List<String> INDUSTRIES =
      List.of("Technology", "Finance", "Retail", "Healthcare", "Energy");
  private static final List<String> CITIES = List.of("Paris", "Austin", "Osaka", "Lagos", "Porto");

  private final Random random;
  private long commitNumber = 1_000;
  private long orderNumber = 10_000;
  private int accounts;

  SampleEvents(long seed) {
    this.random = new Random(seed);
  }

  /** The next event: a login half of the time, else an order or an Account change. */
  Event next(Instant now) {
    int dice = random.nextInt(4);
    if (dice < 2) {
      return new Event(FakePubSub.LOGIN, login(now));
    }
    return dice == 2
        ? new Event(FakePubSub.ORDER, order(now))
        : new Event(FakePubSub.ACCOUNT_CHANGE, accountChange(now));
  }

  private Map<String, Object> login(Instant now) {
    int user = random.nextInt(USERS.size());
    boolean failed = random.nextInt(6) == 0;
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("EventDate", now.toEpochMilli());
    f.put("EventIdentifier", uuid());
    f.put("EventUuid", uuid());
    f.put("UserId", String.format(Locale.ROOT, "005D0000000%04dAAA", user));
    f.put("Username", USERS.get(user) + "@acme.example");
    f.put("SourceIp", "203.0.113." + (1 + random.nextInt(254)));
    f.put("LoginUrl", "acme.my.salesforce.com");
    f.put("Status", failed ? pick(FAILURES) : "Success");
    f.put("Application", pick(APPLICATIONS));
    f.put("Browser", pick(BROWSERS));
    f.put("EvaluationTime", Math.round(random.nextDouble() * 4000) / 100.0);
    return f;
  }

  private Map<String, Object> order(Instant now) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("CreatedDate", now.toEpochMilli());
    f.put("CreatedById", "005D00000000007AAA");
    f.put("Order_Number__c", "ORD-" + orderNumber++);
    f.put("Amount__c", (100 + random.nextInt(99_900)) / 100.0);
    return f;
  }

  /** A new Account (the first few), then updates of one field group of a known one. */
  private Map<String, Object> accountChange(Instant now) {
    boolean create = accounts < 3 || random.nextInt(5) == 0;
    String recordId =
        String.format(
            Locale.ROOT, "001D0000000%04dAAA", create ? accounts++ : random.nextInt(accounts));
    Map<String, Object> f = new LinkedHashMap<>();
    List<String> changed;
    if (create) {
      f.put("Name", "Acme Account " + accounts);
      f.put("Type", "Customer - Direct");
      f.put("BillingAddress", Map.of("City", pick(CITIES), "Country", "FR"));
      f.put("Phone", phone());
      f.put("Industry", pick(INDUSTRIES));
      changed = List.of(); // a CREATE names no changed fields
    } else if (random.nextBoolean()) {
      f.put("Phone", phone());
      f.put("Industry", pick(INDUSTRIES));
      changed = List.of("0xE0"); // Phone (5), Industry (6), LastModifiedDate (7)
    } else {
      f.put("BillingAddress", Map.of("City", pick(CITIES)));
      changed = List.of("0x90", "4-0x02"); // BillingAddress (4) and its City (1), LastModifiedDate
    }
    f.put("LastModifiedDate", now.toEpochMilli());
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("entityName", "Account");
    header.put("recordIds", List.of(recordId));
    header.put("changeType", create ? "CREATE" : "UPDATE");
    header.put("changeOrigin", "com/salesforce/api/rest/60.0");
    header.put("transactionKey", uuid());
    header.put("sequenceNumber", 1);
    header.put("commitTimestamp", now.toEpochMilli());
    header.put("commitNumber", commitNumber++);
    header.put("commitUser", "005D00000000007AAA");
    header.put("nulledFields", List.of());
    header.put("diffFields", List.of());
    header.put("changedFields", changed);
    f.put("ChangeEventHeader", header);
    return f;
  }

  private String pick(List<String> values) {
    return values.get(random.nextInt(values.size()));
  }

  private String phone() {
    return String.format(Locale.ROOT, "+1 512 555 %04d", random.nextInt(10_000));
  }

  private String uuid() {
    return new java.util.UUID(random.nextLong(), random.nextLong()).toString();
  }
}
