/**
 * Benchmarks and their fixtures (never run by surefire: class names end in {@code Benchmark}). See
 * {@code docs/performance.md} for the commands and the figures.
 */
package io.sf2loki.bench;
