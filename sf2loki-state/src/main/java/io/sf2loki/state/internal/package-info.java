/**
 * Machinery shared by the checkpoint stores: the document codec, the epoch-fencing rules, the
 * conditional-write loop of the object stores, retries and metrics. Not an API.
 */
package io.sf2loki.state.internal;
