/** The sources' checkpoint values as a repair tool sees them: what each namespace accepts. */
package io.sf2loki.source.checkpoint;
