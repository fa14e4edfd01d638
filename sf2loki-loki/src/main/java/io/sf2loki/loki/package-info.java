/** The Loki sink: configuration, encodings, authentication and response handling. */
package io.sf2loki.loki;
