/**
 * The optional time bounds ({@code start}, {@code until}) a polling source reads a window of the
 * past within: the daemon's live run leaves them unset, {@code sf2loki-cli backfill} sets them.
 */
package io.sf2loki.source.window;
