/** Immutable values that flow from sources through the pipeline to Loki and the stores. */
package io.sf2loki.model;
