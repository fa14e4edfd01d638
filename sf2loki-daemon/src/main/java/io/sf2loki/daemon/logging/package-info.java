/**
 * What the daemon logs beyond single events: the periodic summary of its metrics ({@code
 * service.log_summary_interval}) and the {@code logfmt} log format.
 */
package io.sf2loki.daemon.logging;
