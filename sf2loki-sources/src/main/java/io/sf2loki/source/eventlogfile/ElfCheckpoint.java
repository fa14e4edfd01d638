package io.sf2loki.source.eventlogfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.EventTimes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The per-type EventLogFile cursor, compatible with the Python sf2loki: {@code {"ids": [["<file
 * id>", "<raw CreatedDate>"], ...], "last_created": "<raw CreatedDate>"}}. It holds every pair at
 * the watermark plus the last {@value #OLDER_KEPT} older ones, so a boundary file is never re-read
 * and a regenerated file (same id, newer CreatedDate) is. It may also hold pairs newer than the
 * watermark: zero-row files, which are recorded without moving it ({@link #remember}). sf2loki adds
 * {@code "schema": "<16 hex digits>"}, the hash of the columns of the type's last read file ({@link
 * ElfSchema#hash}), so a restart can tell a column change; a value without it (the Python
 * sf2loki's) reads as having none, and a malformed one is ignored. It also adds {@code
 * "covered_until": "<instant>"}, the end of the newest hour (or day) whose file was read: where an
 * Event Log Object taking the type over starts ({@code LoginEventLog} after {@code Login}), so the
 * switch-over neither loses nor repeats an hour; absent or malformed, it is unknown. Immutable.
 *
 * @param seen (id, raw CreatedDate) pairs in processing order; a legacy bare id has an empty date
 *     and matches any date
 * @param lastCreated the watermark, in Salesforce's raw form as received
 * @param schema the hash of the last read file's columns, when known
 * @param coveredUntil the end of the latest {@code LogDate} interval whose file was read, when
 *     known
 */
public record ElfCheckpoint(
    List<Seen> seen, String lastCreated, Optional<String> schema, Optional<Instant> coveredUntil) {

  static final int OLDER_KEPT = 200;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One processed file. */
  public record Seen(String id, String created) {}

  public ElfCheckpoint {
    seen = List.copyOf(seen);
    Objects.requireNonNull(lastCreated, "lastCreated");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(coveredUntil, "coveredUntil");
  }

  /** A cursor without a recorded coverage. */
  public ElfCheckpoint(List<Seen> seen, String lastCreated, Optional<String> schema) {
    this(seen, lastCreated, schema, Optional.empty());
  }

  /** A cursor without a recorded schema or coverage. */
  public ElfCheckpoint(List<Seen> seen, String lastCreated) {
    this(seen, lastCreated, Optional.empty());
  }

  /** A first-run cursor at {@code watermark} (already in {@code ...Z} form). */
  public static ElfCheckpoint initial(String watermark) {
    return new ElfCheckpoint(List.of(), watermark);
  }

  /** The same cursor recording {@code hash} as the last read file's schema. */
  public ElfCheckpoint withSchema(String hash) {
    return new ElfCheckpoint(seen, lastCreated, Optional.of(hash), coveredUntil);
  }

  /**
   * The same cursor recording that the events before {@code end} (a read file's {@code LogDate}
   * plus its interval) were read; the coverage never moves back.
   */
  public ElfCheckpoint covering(Instant end) {
    Instant kept = coveredUntil.filter(c -> c.isAfter(end)).orElse(end);
    return new ElfCheckpoint(seen, lastCreated, schema, Optional.of(kept));
  }

  /**
   * Reads a stored value; accepts any key order and whitespace, legacy bare id strings inside
   * {@code ids}, and a bare timestamp string as the whole value.
   *
   * @throws IllegalArgumentException when the value is malformed (a corrupt checkpoint)
   */
  public static ElfCheckpoint parse(String value) {
    JsonNode node;
    try {
      node = JSON.readTree(value);
    } catch (IOException e) {
      node = null;
    }
    if (node == null || node.isMissingNode()) {
      return bareTimestamp(value.strip());
    }
    if (node.isTextual()) {
      return bareTimestamp(node.asText());
    }
    if (!node.isObject() || !node.path("last_created").isTextual()) {
      throw new IllegalArgumentException("not an object with a last_created string");
    }
    String last = node.get("last_created").asText();
    requireTimestamp(last);
    JsonNode ids = node.path("ids");
    if (!ids.isMissingNode() && !ids.isArray()) {
      throw new IllegalArgumentException("ids is not an array");
    }
    List<Seen> seen = new ArrayList<>();
    for (JsonNode e : ids) {
      seen.add(parseSeen(e));
    }
    JsonNode schema = node.path("schema");
    JsonNode covered = node.path("covered_until");
    return new ElfCheckpoint(
        seen,
        last,
        schema.isTextual() && schema.asText().matches("[0-9a-f]{16}")
            ? Optional.of(schema.asText())
            : Optional.empty(),
        covered.isTextual() ? EventTimes.parse(covered.asText()) : Optional.empty());
  }

  private static Seen parseSeen(JsonNode e) {
    if (e.isTextual() && Soql.isRecordId(e.asText())) {
      return new Seen(e.asText(), "");
    }
    if (e.isArray() && e.size() == 2 && e.get(0).isTextual() && e.get(1).isTextual()) {
      String id = e.get(0).asText();
      if (!Soql.isRecordId(id)) {
        throw new IllegalArgumentException("ids holds an invalid record id");
      }
      requireTimestamp(e.get(1).asText());
      return new Seen(id, e.get(1).asText());
    }
    throw new IllegalArgumentException("ids entries must be [id, created] pairs or ids");
  }

  private static ElfCheckpoint bareTimestamp(String text) {
    requireTimestamp(text);
    return new ElfCheckpoint(List.of(), text);
  }

  private static void requireTimestamp(String text) {
    if (EventTimes.parse(text).isEmpty()) {
      throw new IllegalArgumentException("unparsable timestamp");
    }
  }

  /** The watermark as an instant (validated on parse). */
  public Instant watermark() {
    return EventTimes.parse(lastCreated).orElseThrow();
  }

  /** True when this exact file version was processed (a legacy bare id matches any date). */
  public boolean contains(String id, Instant created) {
    for (Seen s : seen) {
      if (s.id().equals(id)
          && (s.created().isEmpty()
              || EventTimes.parse(s.created()).orElseThrow().equals(created))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The cursor after processing {@code id} created at {@code createdRaw}: the pair is recorded and
   * the watermark moves up to {@code createdRaw} (never backwards).
   */
  public ElfCheckpoint advance(String id, String createdRaw) {
    Instant created = EventTimes.parse(createdRaw).orElseThrow();
    return withPair(id, createdRaw, created.isAfter(watermark()) ? createdRaw : lastCreated);
  }

  /**
   * The cursor after a file that may not move the watermark (a zero-row file, salesforce-api.md
   * §7.4): the pair is recorded, so the file is not downloaded again, and {@code last_created}
   * stays. A pair newer than the watermark is kept until a later advance passes it.
   */
  public ElfCheckpoint remember(String id, String createdRaw) {
    EventTimes.parse(createdRaw).orElseThrow();
    return withPair(id, createdRaw, lastCreated);
  }

  /**
   * Adds the pair (replacing an older version of the same id: a regenerated file) and prunes: every
   * pair at or after the watermark {@code last} is kept, plus the last {@value #OLDER_KEPT} older
   * ones (legacy bare ids count as older).
   */
  private ElfCheckpoint withPair(String id, String createdRaw, String last) {
    Instant mark = EventTimes.parse(last).orElseThrow();
    List<Seen> all = new ArrayList<>();
    for (Seen s : seen) {
      if (!s.id().equals(id)) { // a regenerated file replaces its older version
        all.add(s);
      }
    }
    all.add(new Seen(id, createdRaw));
    List<Seen> current = new ArrayList<>();
    List<Seen> older = new ArrayList<>();
    for (Seen s : all) {
      Optional<Instant> t =
          s.created().isEmpty() ? Optional.empty() : EventTimes.parse(s.created());
      (t.isPresent() && !t.get().isBefore(mark) ? current : older).add(s);
    }
    List<Seen> kept =
        new ArrayList<>(older.subList(Math.max(0, older.size() - OLDER_KEPT), older.size()));
    kept.addAll(current);
    return new ElfCheckpoint(kept, last, schema, coveredUntil);
  }

  /** The stored form: canonical JSON with sorted keys. */
  public String format() {
    List<Object> ids = new ArrayList<>();
    for (Seen s : seen) {
      ids.add(s.created().isEmpty() ? s.id() : List.of(s.id(), s.created()));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    coveredUntil.ifPresent(c -> doc.put("covered_until", Soql.datetimeLiteral(c)));
    doc.put("ids", ids);
    doc.put("last_created", lastCreated);
    schema.ifPresent(h -> doc.put("schema", h));
    return CanonicalJson.write(doc);
  }
}
