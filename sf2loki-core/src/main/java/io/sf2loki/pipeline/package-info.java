/**
 * The engine between sources and the sink: two lanes (streaming and bulk), each a bounded queue, a
 * batching stage and a delivery stage (one push in flight) joined by a one-batch hand-off;
 * commit-after-push of the checkpoints through one fenced store write per batch; backpressure,
 * retries and graceful shutdown. See docs/pipeline.md.
 */
package io.sf2loki.pipeline;
