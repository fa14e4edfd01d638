/**
 * Reading Salesforce Event Log Objects ({@code *EventLog}) gap-free within their query rules: at
 * most two {@code Timestamp} filters per query, windows of at most 15 days, a settled upper bound,
 * and the boundary millisecond re-read whole instead of a tie-break on {@code Id}.
 */
package io.sf2loki.source.elo;
