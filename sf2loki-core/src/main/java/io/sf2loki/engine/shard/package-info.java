/**
 * What makes an engine one org's shard in a multi-org process: its view of the checkpoint store
 * (keys prefixed {@code org=<name>:}, the legacy document read once), its meters tagged {@code
 * org}, its log lines carrying the org.
 */
package io.sf2loki.engine.shard;
