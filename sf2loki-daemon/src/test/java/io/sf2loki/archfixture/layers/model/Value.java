package io.sf2loki.archfixture.layers.model;

/** The model layer of the layer fixture, for {@code RulesTest}. */
public record Value(String text) {}
