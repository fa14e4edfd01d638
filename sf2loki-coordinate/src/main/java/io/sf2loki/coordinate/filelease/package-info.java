/**
 * The {@code file_lease} coordinator: a lease document {@code {holder, expires_at, epoch}} on
 * storage every replica shares, claimed by write-rename-verify and renewed every {@code
 * renew_interval}.
 */
package io.sf2loki.coordinate.filelease;
