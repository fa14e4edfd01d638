package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.spi.SourceContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run of the configured source would read, found by listing (the backfill dry run): the
 * types it resolves, and per type the files it would download from the cursor it would resume from,
 * with the same listing ({@link ElfListing}: one query for every type, the same window bounds and
 * paging) as the run's first cycle. Rows are not listed by Salesforce: they are estimated from each
 * type's bytes by the bytes per row of one sample file per type (its smallest file with rows; up to
 * {@value #SAMPLE_ATTEMPTS} of the smallest are tried), which is downloaded and counted, its CSV
 * header taken off each file.
 */
public final class ElfInventory implements AutoCloseable {

  /**
   * One type's listing.
   *
   * @param eventType the type
   * @param files files a run would download (zero-length ones included)
   * @param bytes their {@code LogFileLength} sum
   * @param oldFiles files created before the age cutoff given to {@link #list}: all their rows are
   *     older than it
   * @param oldBytes their bytes
   * @param sampleRows data rows of the sample file; 0 without one
   * @param sampleBytes bytes of the sample file; 0 without one
   * @param headerBytes bytes of the sample file's CSV header line
   * @param problem why the type's rows are unknown (its sample download failed), when they are
   */
  public record TypeListing(
      String eventType,
      long files,
      long bytes,
      long oldFiles,
      long oldBytes,
      long sampleRows,
      long sampleBytes,
      long headerBytes,
      Optional<String> problem) {

    /** The estimated rows of all the type's files. */
    public long estimateRows() {
      return estimateRows(files, bytes);
    }

    /** The estimated rows of the files older than the cutoff. */
    public long estimateOldRows() {
      return estimateRows(oldFiles, oldBytes);
    }

    /**
     * The rows of {@code count} files of {@code ofBytes} bytes by the sample's bytes per row, each
     * file's header taken off; exact for the sample file itself.
     */
    private long estimateRows(long count, long ofBytes) {
      if (sampleRows == 0) {
        return 0;
      }
      double perRow = (double) (sampleBytes - headerBytes) / sampleRows;
      return Math.max(0, Math.round((ofBytes - count * headerBytes) / perRow));
    }
  }

  /** How many of a type's smallest files are downloaded to find one with rows. */
  static final int SAMPLE_ATTEMPTS = 3;

  /** The bytes a CSV header line is looked for in. */
  private static final int MAX_HEADER_BYTES = 1 << 20;

  /**
   * The whole inventory.
   *
   * @param types one listing per type, resolved types first (sorted), then types first listed
   * @param discoveryCalls type discovery queries a run makes at its start (0 or 1)
   * @param listingCalls listing calls (query pages) a run's first cycle makes, for every type
   * @param limitsCalls {@code /limits} reads a run makes at its start (0 when {@code
   *     salesforce.limits.enabled} is off, else 1, and one more per {@code poll_interval} it lasts)
   * @param problem why the listing stopped early (a failed or throttled query), when it did
   */
  public record Listing(
      List<TypeListing> types,
      long discoveryCalls,
      long listingCalls,
      long limitsCalls,
      Optional<String> problem) {
    public Listing {
      types = List.copyOf(types);
    }
  }

  private final EventLogFileConfig config;
  private final ElfTypes types;
  private final ElfCursors cursors;
  private final SalesforceRestClient rest;
  private final AutoCloseable resources;
  private final boolean pollsLimits;

  ElfInventory(
      EventLogFileConfig config,
      ElfTypes types,
      ElfCursors cursors,
      SalesforceRestClient rest,
      AutoCloseable resources,
      boolean pollsLimits) {
    this.config = config;
    this.types = types;
    this.cursors = cursors;
    this.rest = rest;
    this.resources = resources;
    this.pollsLimits = pollsLimits;
  }

  /**
   * Lists every type from where a run would resume.
   *
   * @param committed the checkpoint document a run would resume from
   * @param oldBefore the age cutoff counted in {@link TypeListing#oldFiles()}
   * @throws AuthException when no token can be minted
   */
  public Listing list(Map<String, String> committed, Instant oldBefore)
      throws AuthException, InterruptedException {
    List<String> read =
        types.resolve().orElseThrow(() -> new IllegalStateException("discovery throttled"));
    ElfListing listing =
        new ElfListing(config, rest, types, read, cursors, new ReadOnlyContext(committed));
    Map<String, List<ElfFile>> listed = new LinkedHashMap<>();
    read.forEach(t -> listed.put(t, new ArrayList<>()));
    long calls = 0;
    Optional<String> problem = Optional.empty();
    while (!listing.exhausted()) {
      ElfListing.Round round;
      try {
        round = listing.next();
      } catch (ThrottledException e) {
        calls++;
        problem = Optional.of("listing throttled: " + e.getMessage());
        break;
      }
      calls += round.calls();
      round.files().forEach((t, f) -> listed.computeIfAbsent(t, k -> new ArrayList<>()).addAll(f));
      if (round.failure().isPresent()) {
        problem = Optional.of("listing failed: " + round.failure().get().getMessage());
        break;
      }
    }
    List<TypeListing> out = new ArrayList<>();
    for (Map.Entry<String, List<ElfFile>> t : listed.entrySet()) {
      out.add(listType(t.getKey(), t.getValue(), oldBefore));
    }
    return new Listing(out, config.discovers() ? 1 : 0, calls, pollsLimits ? 1 : 0, problem);
  }

  private TypeListing listType(String type, List<ElfFile> files, Instant oldBefore)
      throws AuthException, InterruptedException {
    long bytes = 0;
    long oldFiles = 0;
    long oldBytes = 0;
    for (ElfFile f : files) {
      bytes += f.length();
      if (f.created().isBefore(oldBefore)) {
        oldFiles++;
        oldBytes += f.length();
      }
    }
    Optional<String> problem = Optional.empty();
    Sample sample = new Sample(0, 0, 0);
    List<ElfFile> smallest = new ArrayList<>(files);
    smallest.sort(Comparator.comparingLong(ElfFile::length));
    for (ElfFile f : smallest.subList(0, Math.min(SAMPLE_ATTEMPTS, smallest.size()))) {
      try {
        sample = sample(f);
      } catch (SalesforceApiException e) {
        problem = Optional.of("sample download failed, rows unknown: " + e.getMessage());
        break;
      }
      if (sample.rows() > 0) {
        break;
      }
    }
    return new TypeListing(
        type,
        files.size(),
        bytes,
        oldFiles,
        oldBytes,
        sample.rows(),
        sample.bytes(),
        sample.headerBytes(),
        problem);
  }

  /** A downloaded and counted file. */
  private record Sample(long rows, long bytes, long headerBytes) {}

  private Sample sample(ElfFile f)
      throws SalesforceApiException, AuthException, InterruptedException {
    String path = rest.dataPath("sobjects/EventLogFile/" + f.id() + "/LogFile");
    return rest.download(path, body -> count(body, f.length()));
  }

  private static Sample count(InputStream raw, long length) throws IOException {
    BufferedInputStream body = new BufferedInputStream(raw);
    body.mark(MAX_HEADER_BYTES);
    long header = 0;
    for (int b = body.read(); b >= 0 && header < MAX_HEADER_BYTES; b = body.read()) {
      header++;
      if (b == '\n') {
        break;
      }
    }
    body.reset();
    long n = 0;
    try (CsvRows csv = new CsvRows(body)) {
      while (csv.hasNext()) {
        csv.next();
        n++;
      }
    }
    return new Sample(n, length, header);
  }

  /** Closes the HTTP client. */
  @Override
  public void close() throws IOException {
    try {
      resources.close();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the EventLogFile HTTP client failed: " + e.getMessage(), e);
    }
  }

  /** The committed document as a run would see it; the inventory emits nothing. */
  private record ReadOnlyContext(Map<String, String> committed) implements SourceContext {
    @Override
    public void emit(LogEntry entry) {
      throw new UnsupportedOperationException("an inventory emits nothing");
    }

    @Override
    public Optional<String> checkpoint(String key) {
      return Optional.ofNullable(committed.get(key));
    }

    @Override
    public boolean stopRequested() {
      return false;
    }

    @Override
    public boolean awaitStop(Duration timeout) {
      return false;
    }
  }
}
