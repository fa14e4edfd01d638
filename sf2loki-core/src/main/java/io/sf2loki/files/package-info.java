/**
 * Durable local files shared by the file store, the file lease and the dead-letter file: one write
 * protocol (temp file in the same directory, fsync, atomic rename, directory fsync), one
 * directory-fsync policy, one configurable file mode and one way to find what a crashed writer
 * left. Depends on the JDK, SLF4J, Micrometer and {@code spi} only, so every module may use it.
 */
package io.sf2loki.files;
