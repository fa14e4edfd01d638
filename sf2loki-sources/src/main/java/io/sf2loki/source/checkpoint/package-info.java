/**
 * The checkpoint values of every source seen together, for the operator's tools: what each
 * namespace accepts (a repair through {@code state set} or Connect's offsets API), and how a
 * document written by another writer (the Python sf2loki) is carried into sf2loki's.
 */
package io.sf2loki.source.checkpoint;
