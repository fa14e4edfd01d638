/** Finds providers on the class path by their config type name. */
package io.sf2loki.registry;
