package io.sf2loki.daemon;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Map;

/**
 * The {@code # HELP} text of the meters that the modules register without a description, so that
 * every family of {@code /metrics} has one ({@code promtool check metrics} reports "no help text"
 * otherwise). A meter registered with its own description keeps it. Each text is the short form of
 * the metric's row in docs/observability/metrics.md, which has the full meaning.
 */
final class MeterHelp implements MeterFilter {

  private static final Map<String, String> HELP =
      Map.ofEntries(
          // pipeline
          Map.entry("sf2loki_events_ingested", "Entries handed to the pipeline by sources"),
          Map.entry(
              "sf2loki_ingest_lag_seconds",
              "Now minus the entry's timestamp when its source hands it over"),
          Map.entry("sf2loki_loki_push", "Pipeline-level push attempts by outcome"),
          Map.entry("sf2loki_loki_entries_dropped", "Entries dropped for good, by reason"),
          // shaping
          Map.entry("sf2loki_rows_filtered", "Records dropped by a drop_row transform"),
          Map.entry("sf2loki_entries_sampled_out", "Records left out by sampling"),
          Map.entry(
              "sf2loki_label_values_capped",
              "Entries that lost a promoted label to max_label_values"),
          Map.entry(
              "sf2loki_timestamp_fallbacks", "Records without a parsable event time (fallback)"),
          // Salesforce
          Map.entry("sf2loki_auth_refreshes", "Successful Salesforce token mints"),
          Map.entry("sf2loki_salesforce_api_calls", "Salesforce REST/Tooling calls by result"),
          Map.entry(
              "sf2loki_salesforce_api_throttled", "403 REQUEST_LIMIT_EXCEEDED answers, by API"),
          Map.entry(
              "sf2loki_salesforce_clock_skew_seconds",
              "Salesforce's clock minus this host's, from the last REST response"),
          Map.entry(
              "sf2loki_salesforce_api_usage_used",
              "The org's API calls in its rolling 24 hours (Sforce-Limit-Info)"),
          Map.entry(
              "sf2loki_salesforce_api_usage_limit",
              "The org's daily API allocation (Sforce-Limit-Info)"),
          Map.entry(
              "sf2loki_salesforce_limit_info_errors",
              "Sforce-Limit-Info headers without a usable api-usage"),
          Map.entry("sf2loki_salesforce_limit_max", "Each org limit's maximum, from /limits"),
          Map.entry(
              "sf2loki_salesforce_limit_remaining",
              "Each org limit's remaining amount, from /limits"),
          Map.entry("sf2loki_salesforce_limits_poll_errors", "Failed /limits polls"),
          Map.entry(
              "sf2loki_salesforce_api_budget_used",
              "sf2loki's own Salesforce calls in the rolling 24 hours"),
          Map.entry(
              "sf2loki_salesforce_api_budget_allowance",
              "The calls sf2loki may make in 24 hours (api_share times the allocation)"),
          Map.entry(
              "sf2loki_salesforce_api_budget_state",
              "The pollers' pace: 0 normal, 1 slowed, 2 paused"),
          Map.entry("sf2loki_soql_poll_errors", "Failed listings and polls, by source and object"),
          Map.entry(
              "sf2loki_checkpoint_load_errors", "Stored checkpoints that could not be parsed"),
          Map.entry(
              "sf2loki_watermark_stalls",
              "Cursors that could not move past a full page of seen" + " records"),
          // EventLogFile
          Map.entry(
              "sf2loki_eventlogfile_files_processed", "Log files fully downloaded and emitted"),
          Map.entry("sf2loki_eventlogfile_rows_ingested", "Entries built from CSV rows"),
          Map.entry("sf2loki_eventlogfile_download_bytes", "Log file bytes received"),
          Map.entry("sf2loki_eventlogfile_download_errors", "Failed listings and downloads"),
          Map.entry("sf2loki_eventlogfile_cycle_seconds", "Wall time of the last listing cycle"),
          // Apex logs
          Map.entry("sf2loki_apexlog_logs_ingested", "Apex logs shipped as entries"),
          Map.entry("sf2loki_apexlog_download_bytes", "Apex log body bytes received"),
          Map.entry("sf2loki_apexlog_download_errors", "Failed Apex log body downloads"),
          Map.entry("sf2loki_apexlog_bodies_skipped", "Apex logs shipped without their body"),
          // Pub/Sub
          Map.entry("sf2loki_pubsub_events_received", "Events received on the topic's stream"),
          Map.entry(
              "sf2loki_pubsub_pending_credits", "Events the server may still send (last response)"),
          Map.entry(
              "sf2loki_pubsub_stream_up", "1 after the first message on a connection, else 0"),
          Map.entry(
              "sf2loki_pubsub_position_age_seconds",
              "Time since the committed position was received"),
          Map.entry(
              "sf2loki_pubsub_stream_stalls", "Watchdog firings: no message for stall_timeout"),
          Map.entry("sf2loki_pubsub_reconnects", "Subscribe attempts after the first of a run"),
          Map.entry("sf2loki_pubsub_stream_errors", "Streams that ended with an error"),
          Map.entry(
              "sf2loki_pubsub_auth_refreshes",
              "Auth errors answered by resubscribing with a fresh" + " token"),
          Map.entry(
              "sf2loki_pubsub_replay_fallbacks",
              "Expired or corrupt replay ids resumed from EARLIEST"),
          Map.entry("sf2loki_pubsub_topics_refused", "GetTopic checks that refused the topic"),
          Map.entry("sf2loki_pubsub_commit_errors", "Commits a managed subscription refused"),
          Map.entry(
              "sf2loki_pubsub_decode_stalls", "Streaks of three responses that failed to decode"),
          Map.entry("sf2loki_decode_errors", "Events or change bitmaps that did not decode"),
          Map.entry("sf2loki_schema_cache_size", "Writer schemas in the cache"));

  @Override
  public Meter.Id map(Meter.Id id) {
    String description = id.getDescription();
    if (description != null && !description.isBlank()) {
      return id;
    }
    String help = HELP.get(id.getName());
    if (help == null) {
      return id;
    }
    return new Meter.Id(id.getName(), Tags.of(id.getTags()), id.getBaseUnit(), help, id.getType());
  }
}
