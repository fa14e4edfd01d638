/**
 * The gRPC client of Salesforce's Pub/Sub API: the channel with per-call credentials read from the
 * shared token provider, one Subscribe stream with its credit accounting, and the classification of
 * stream errors by their {@code error-code} trailer.
 */
package io.sf2loki.source.pubsub.client;
