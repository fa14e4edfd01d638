/**
 * The EventLogFile source ({@code sources.eventlogfile}): lists log files per event type by
 * CreatedDate, downloads each as a stream into a bounded spool, parses it with a real CSV parser
 * and emits one entry per row. The per-type checkpoint (watermark plus the ids at it) rides on the
 * entries as salesforce-api.md §7.4 says: the file's last shipped row carries the advance past it,
 * every earlier row the pre-file position; a zero-row file never moves the watermark; whatever no
 * entry carried goes on one checkpoint-only entry at the end of the type's cycle (invariant 1).
 */
package io.sf2loki.source.eventlogfile;
