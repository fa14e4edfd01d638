package io.sf2loki.source.pubsub.decode;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Writer schemas by schema id, each with its {@linkplain AvroPayloads.Reader decoder}: bounded
 * (least recently used out), single-flight per id, shared by every topic of a run. A schema id is a
 * fingerprint, so an entry never goes stale. Thread-safe.
 */
public final class SchemaCache {

  /** Fetches a schema's JSON by id (GetSchema). */
  @FunctionalInterface
  public interface Fetcher {
    /**
     * @throws UnknownSchemaException when the service does not know the id
     * @throws Exception any other failure: a stream error, retried by resubscribing
     */
    String fetch(String schemaId) throws Exception;
  }

  /** The service does not know a schema id, or its JSON does not parse. */
  public static final class UnknownSchemaException extends Exception {
    private static final long serialVersionUID = 1L;

    public UnknownSchemaException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final Fetcher fetcher;
  private final Map<String, AvroPayloads.Reader> schemas;
  private final Map<String, Object> inFlight = new ConcurrentHashMap<>();

  /**
   * @param maxSize the most schemas kept
   */
  public SchemaCache(Fetcher fetcher, int maxSize) {
    this.fetcher = fetcher;
    this.schemas =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, AvroPayloads.Reader> eldest) {
            return size() > maxSize;
          }
        };
  }

  /** The schema of {@code schemaId}, fetched once however many threads ask at the same time. */
  public Schema get(String schemaId) throws Exception {
    return reader(schemaId).schema();
  }

  /**
   * The decoder of {@code schemaId}'s schema, fetched once however many threads ask at the same
   * time.
   */
  public AvroPayloads.Reader reader(String schemaId) throws Exception {
    AvroPayloads.Reader cached = cached(schemaId);
    if (cached != null) {
      return cached;
    }
    synchronized (inFlight.computeIfAbsent(schemaId, id -> new Object())) {
      try {
        cached = cached(schemaId);
        if (cached != null) {
          return cached;
        }
        String json = fetcher.fetch(schemaId);
        AvroPayloads.Reader reader;
        try {
          reader = new AvroPayloads.Reader(new Schema.Parser().parse(json));
        } catch (SchemaParseException e) {
          throw new UnknownSchemaException("schema " + schemaId + " does not parse", e);
        }
        synchronized (schemas) {
          schemas.put(schemaId, reader);
        }
        return reader;
      } finally {
        inFlight.remove(schemaId);
      }
    }
  }

  /** Schemas held now. */
  public int size() {
    synchronized (schemas) {
      return schemas.size();
    }
  }

  private AvroPayloads.Reader cached(String schemaId) {
    synchronized (schemas) {
      return schemas.get(schemaId);
    }
  }
}
