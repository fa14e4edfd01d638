/** The daemon launcher: configuration, signals, HTTP endpoints around the core engine. */
package io.sf2loki.daemon;
