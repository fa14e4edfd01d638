/**
 * The chaos soak ({@code just soak}, docs/reliability.md): a {@code file_lease} pair of daemon
 * processes, run from the shaded jar, against the fake Salesforce and the fake Loki, once with the
 * file store and once with S3 (s3proxy), under seeded random faults. At the end it proves from the
 * fake Loki and the store that no generated event was lost, that duplicates stayed within the
 * documented bound, that no checkpoint moved backwards and that no epoch was led by two processes.
 */
package io.sf2loki.daemon.soak;
