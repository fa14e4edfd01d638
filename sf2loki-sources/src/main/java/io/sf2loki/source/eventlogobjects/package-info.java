/**
 * The {@code eventlog_objects} source: polls queryable Salesforce objects ({@code LoginEvent},
 * {@code SetupAuditTrail}, {@code LoginHistory}, the {@code *EventStore} objects, custom objects)
 * by a timestamp field with a {@code (timestamp, Id)} cursor, and drains big objects newest-first
 * with a bounded tie strategy. Checkpoint key {@code eventlog_objects:{Object}}.
 */
package io.sf2loki.source.eventlogobjects;
