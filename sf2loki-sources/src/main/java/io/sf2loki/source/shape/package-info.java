/**
 * Line and timestamp shaping shared by the sources: canonical JSON (sorted keys, fixed separators,
 * ASCII-only escapes, byte-stable across replays: invariant 5) and the timestamp forms Salesforce
 * payloads use.
 */
package io.sf2loki.source.shape;
