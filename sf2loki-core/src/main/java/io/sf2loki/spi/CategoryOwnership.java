package io.sf2loki.spi;

/**
 * The question a source asks before it ingests an event category it found by wildcard discovery
 * ({@code event_types = ["*"]}): does another source of this run own it? The launcher's answer
 * (explicit identifiers elsewhere, then a precedence among the discovering sources, unless {@code
 * sources.allow_overlap}) comes in through {@link SourceEnvironment#categoryOwnership()}.
 *
 * <p>Explicitly configured identifiers are never asked about. Implementations are shared by every
 * source of a run and called from their threads concurrently: thread-safe, non-blocking, no I/O.
 */
@FunctionalInterface
public interface CategoryOwnership {

  /**
   * Records that {@code sourceType} discovered {@code category} and answers whether it may ingest
   * it now. Call on every discovery pass: ownership can move to a source of higher precedence that
   * discovers the category later.
   *
   * @param sourceType the asking source's config type ({@code eventlogfile})
   * @param category the category of the discovered identifier, as {@code shape.Categories} names it
   */
  boolean mayIngestDiscovered(String sourceType, String category);

  /** No other sources, overlap allowed: every discovered category may be ingested. */
  static CategoryOwnership unrestricted() {
    return (sourceType, category) -> true;
  }
}
