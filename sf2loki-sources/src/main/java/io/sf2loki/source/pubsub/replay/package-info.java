/**
 * Replay positions of the Pub/Sub source: replay ids as opaque bytes stored base64 under {@code
 * pubsub:<topic>}, and where a subscription starts from a stored position and the configured
 * presets.
 */
package io.sf2loki.source.pubsub.replay;
