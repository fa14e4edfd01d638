/**
 * Deadlines on blocking file-system calls (the state file, the file lease on NFS/EFS): each call
 * runs on a small bounded pool and its caller waits for it at most its deadline, so a hung mount
 * delays a caller but never blocks it for ever. Depends on the JDK, SLF4J and Micrometer only, so
 * every module may use it.
 */
package io.sf2loki.deadline;
