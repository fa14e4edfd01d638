/** The operator CLI launcher: wiring, exit-code mapping and the {@code main} entry point. */
package io.sf2loki.cli;
