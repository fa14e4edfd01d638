/**
 * The real tools the users run, found for the tests that check our files with them ({@code
 * promtool}, {@code kubectl}, {@code node}): {@link io.sf2loki.testkit.tools.ExternalTool} finds a
 * binary or skips the test (fails it where the gate requires the tools), {@link
 * io.sf2loki.testkit.tools.ToolRun} runs one to completion with its output captured.
 */
package io.sf2loki.testkit.tools;
