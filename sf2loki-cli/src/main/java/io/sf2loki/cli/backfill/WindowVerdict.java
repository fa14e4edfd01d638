package io.sf2loki.cli.backfill;

/**
 * What a finished backfill run amounted to for its window. The window's progress document tells a
 * run that resumed, or found the window already read by earlier runs, from one that read it from
 * its start, so a run that found nothing new is never reported as having backfilled the window.
 */
enum WindowVerdict {
  /** No earlier progress: this run read the whole window. */
  READ_FROM_START,
  /** Earlier runs of this window left progress, and this run read the rest. */
  RESUMED,
  /** Earlier runs of this window had read it to its end: this run found nothing new. */
  ALREADY_COMPLETE,
  /** No earlier progress, and nothing was created in the window. */
  EMPTY;

  /**
   * @param prior the window's progress before the run
   * @param found whether the run read anything (a file, a row)
   */
  static WindowVerdict of(PriorProgress prior, boolean found) {
    if (prior.any()) {
      return found ? RESUMED : ALREADY_COMPLETE;
    }
    return found ? READ_FROM_START : EMPTY;
  }

  /** How the totals line starts: only work done, or a window found empty, is "done". */
  String totalsPrefix() {
    return this == ALREADY_COMPLETE ? "backfill nothing to do:" : "backfill done:";
  }

  /**
   * The closing line: {@code backfill <source> <since>..<until>: …}.
   *
   * @param pushed what the run pushed, {@code 24 files, 12345 rows} or {@code 453 rows}
   */
  String render(BackfillRequest request, PriorProgress prior, String pushed) {
    boolean files = request.source().equals(BackfillRequest.EVENTLOGFILE);
    String head = "backfill " + request.source() + " " + request.describeWindow() + ": ";
    return head
        + switch (this) {
          case READ_FROM_START ->
              "complete, read from its start by this run: "
                  + pushed
                  + " pushed; progress in "
                  + prior.document();
          case RESUMED ->
              "complete, resumed where an earlier run of this window stopped ("
                  + prior.typeList()
                  + "): this run read the rest, "
                  + pushed
                  + " pushed; progress in "
                  + prior.document();
          case ALREADY_COMPLETE ->
              "nothing to do, earlier runs of this window had already read it to its end"
                  + " (progress in "
                  + prior.document()
                  + "); nothing was sent. To re-ingest the window, delete that document";
          case EMPTY ->
              "complete, nothing in the window (no "
                  + (files ? "file of the event types read was created" : "row of the objects read")
                  + " in it); nothing was sent";
        };
  }
}
