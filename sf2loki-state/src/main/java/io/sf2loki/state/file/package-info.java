/**
 * The {@code file} checkpoint store: a local JSON document written with temp file, fsync, atomic
 * rename and directory fsync, guarded by a {@code <path>.lock} sidecar.
 */
package io.sf2loki.state.file;
