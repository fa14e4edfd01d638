/**
 * The EventLogFile source ({@code sources.eventlogfile}): lists log files per event type by
 * CreatedDate, downloads each as a stream into a bounded spool, parses it with a real CSV parser
 * and emits one entry per row; the per-type checkpoint (watermark plus the ids at it) advances past
 * a file only through a checkpoint-only entry queued after the file's last row (invariant 1).
 */
package io.sf2loki.source.eventlogfile;
