/**
 * The shaping rules every source shares (invariant 5): canonical JSON lines, PII transforms,
 * deterministic sampling, structured metadata and {@code level}, label promotion with a runtime
 * cardinality guard, event timestamps with a counted fallback, and the startup overlap guard that
 * keeps one event category on one source.
 *
 * <p>Sources build one {@link io.sf2loki.shape.Shaper} per run from the {@link
 * io.sf2loki.shape.ShapingConfig} bound out of their own config section and hand it each record's
 * top-level field map; cursors always advance from the original values, never from the shaped ones.
 */
package io.sf2loki.shape;
