package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.EventTimes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resume position of one polled object (or of the ApexLog listing): the watermark {@code
 * last_ts} in Salesforce's raw form, the id of the last processed record, and the id window — every
 * id at {@code last_ts} plus the most recent others, up to {@value #WINDOW} in total. Stored as
 * {@code {"ids": [...], "last_ts": "..."}}; a bare timestamp is the legacy form.
 *
 * <p>Mutable, confined to the source thread; {@link #copy()} snapshots it.
 */
public final class ObjectCursor {

  /** Ids kept besides those at the watermark. */
  public static final int WINDOW = 500;

  private static final ObjectMapper JSON = new ObjectMapper();

  private String lastTs;
  private Instant watermark;
  private final LinkedHashMap<String, Instant> ids; // id -> its timestamp, in processing order

  private ObjectCursor(String lastTs, Instant watermark, LinkedHashMap<String, Instant> ids) {
    this.lastTs = lastTs;
    this.watermark = watermark;
    this.ids = ids;
  }

  /** A fresh cursor at {@code start} (whole seconds, literal form). */
  public static ObjectCursor startingAt(Instant start) {
    return new ObjectCursor(Soql.datetimeLiteral(start), start, new LinkedHashMap<>());
  }

  /**
   * Reads a stored value.
   *
   * @throws IllegalArgumentException when it is not a valid cursor (a corrupt checkpoint)
   */
  public static ObjectCursor decode(String value) {
    String text = value.strip();
    if (!text.startsWith("{")) {
      String raw =
          text.startsWith("\"") && text.endsWith("\"") && text.length() > 1
              ? text.substring(1, text.length() - 1)
              : text;
      Instant t =
          EventTimes.parse(raw).orElseThrow(() -> new IllegalArgumentException("not a timestamp"));
      return new ObjectCursor(raw, t, new LinkedHashMap<>());
    }
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON", e);
    }
    JsonNode ts = node.get("last_ts");
    JsonNode list = node.get("ids");
    if (ts == null || !ts.isTextual() || (list != null && !list.isArray())) {
      throw new IllegalArgumentException("needs a string last_ts and an ids array");
    }
    Instant t =
        EventTimes.parse(ts.asText())
            .orElseThrow(() -> new IllegalArgumentException("last_ts is not a timestamp"));
    LinkedHashMap<String, Instant> ids = new LinkedHashMap<>();
    if (list != null) {
      for (JsonNode id : list) {
        if (!id.isTextual() || !Soql.isRecordId(id.asText())) {
          throw new IllegalArgumentException("ids holds a value that is not a record id");
        }
        ids.put(id.asText(), t); // stored windows do not say which ids are older: keep them all
      }
    }
    return new ObjectCursor(ts.asText(), t, ids);
  }

  /** The stored form, keys sorted. */
  public String encode() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("ids", new ArrayList<>(ids.keySet()));
    doc.put("last_ts", lastTs);
    return CanonicalJson.write(doc);
  }

  /** The watermark as an instant. */
  public Instant watermark() {
    return watermark;
  }

  /** The watermark as stored (Salesforce's raw form). */
  public String lastTs() {
    return lastTs;
  }

  /** True when {@code id} was already processed. */
  public boolean seen(String id) {
    return ids.containsKey(id);
  }

  /** The id of the most recently processed record, when it can be used in a query. */
  public Optional<String> lastId() {
    String last = null;
    for (String id : ids.keySet()) {
      last = id;
    }
    return Optional.ofNullable(last).filter(Soql::isRecordId);
  }

  /** How many ids the window holds. */
  public int windowSize() {
    return ids.size();
  }

  /**
   * Records a processed row from its <em>original</em> values: the watermark moves to its time when
   * that is newer; a row without a usable time keeps the watermark.
   */
  public void advance(String id, Optional<Instant> time, String rawTime) {
    if (time.isPresent() && time.get().isAfter(watermark)) {
      watermark = time.get();
      lastTs = rawTime;
    }
    ids.remove(id);
    ids.put(id, time.filter(t -> !t.isAfter(watermark)).orElse(watermark));
    trim();
  }

  private void trim() {
    int excess = ids.size() - WINDOW;
    Iterator<Map.Entry<String, Instant>> it = ids.entrySet().iterator();
    while (excess > 0 && it.hasNext()) {
      Map.Entry<String, Instant> e = it.next();
      if (e.getValue().isBefore(watermark)) {
        it.remove();
        excess--;
      }
    }
  }

  /** An independent copy. */
  public ObjectCursor copy() {
    return new ObjectCursor(lastTs, watermark, new LinkedHashMap<>(ids));
  }

  /** Ids of the window, in processing order (for tests and diagnostics). */
  List<String> ids() {
    return List.copyOf(ids.keySet());
  }
}
