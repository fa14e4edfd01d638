/** The daemon's plain HTTP/1.1 endpoints: {@code /healthz}, {@code /readyz}, {@code /metrics}. */
package io.sf2loki.daemon.http;
