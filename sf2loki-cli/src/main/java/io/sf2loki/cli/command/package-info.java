/** The CLI's commands: {@code config}, and the operator commands added by later work. */
package io.sf2loki.cli.command;
