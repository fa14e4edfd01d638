/**
 * {@code sf2loki-cli backfill}: re-ingests a past window through the real engine, into a checkpoint
 * document of its own, beside a running daemon.
 */
package io.sf2loki.cli.backfill;
