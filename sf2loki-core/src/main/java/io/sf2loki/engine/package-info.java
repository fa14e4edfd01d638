/**
 * The embeddable engine: runs a coordinator and, on each leadership term, a fresh pipeline over the
 * configured sources, sink and store. Launchers wrap it; library users build one directly.
 */
package io.sf2loki.engine;
