package io.sf2loki.testkit.loki;

import java.util.Map;

/**
 * The text of Loki's 400 answer for entries refused by its time rules, built as the fake Loki
 * builds it ({@link RejectionReport}), for another fake that plays a Loki (the OTLP receiver in
 * front of Loki's {@code /otlp/v1/logs}, which answers the same texts). Not thread-safe: one per
 * request.
 */
public final class LokiRejectionBody {

  private final RejectionReport report = new RejectionReport();
  private final String tenant;

  /**
   * @param tenant the request's tenant, named in the ingester's too-far-behind block
   */
  public LokiRejectionBody(String tenant) {
    this.tenant = tenant;
  }

  /** The distributor's refusal of an entry older than {@code oldestNanos}. */
  public void tooOld(Map<String, String> labels, long entryNanos, long oldestNanos) {
    report.add(
        RejectionReport.Kind.TOO_OLD,
        () -> RejectionReport.tooOld(labels, entryNanos, oldestNanos));
  }

  /** The distributor's refusal of an entry further ahead than {@code creation_grace_period}. */
  public void tooNew(Map<String, String> labels, long entryNanos) {
    report.add(RejectionReport.Kind.TOO_NEW, () -> RejectionReport.tooNew(labels, entryNanos));
  }

  /**
   * The ingester's block for one stream's entries behind its out-of-order window.
   *
   * @param entryNanos the refused entries' timestamps
   * @param cutoffNanos the oldest acceptable timestamp each was compared with
   * @param reached how many of the stream's entries reached the ingester
   */
  public void tooFarBehind(
      Map<String, String> labels, long[] entryNanos, long[] cutoffNanos, int reached) {
    RejectionReport.TooFarBehind behind = new RejectionReport.TooFarBehind();
    for (int i = 0; i < entryNanos.length; i++) {
      behind.add(entryNanos[i], cutoffNanos[i]);
    }
    report.add(behind, tenant, labels, reached);
  }

  /** Whether nothing was refused. */
  public boolean isEmpty() {
    return report.isEmpty();
  }

  /** The body: the ingester's block first, then the distributor's reasons, one a line. */
  public String body() {
    return report.body();
  }
}
