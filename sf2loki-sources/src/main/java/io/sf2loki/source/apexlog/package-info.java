/**
 * The {@code apexlog} source (off by default): lists Apex debug logs through the Tooling API with a
 * {@code (StartTime, Id)} cursor and ships each log's body as one Loki entry. The cursor never
 * moves past a log whose body was not delivered, except after a bounded number of attempts or past
 * the maximum age, when the log is shipped with its metadata only, marked and counted. Checkpoint
 * key {@code apexlog}.
 */
package io.sf2loki.source.apexlog;
