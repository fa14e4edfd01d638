/**
 * The checkpoint values of every source seen together, for the operator commands that carry a
 * document written by another writer (the Python sf2loki) into sf2loki's.
 */
package io.sf2loki.source.checkpoint;
