/** The {@code noop} coordinator: a single instance that always leads, without fencing. */
package io.sf2loki.coordinate.noop;
