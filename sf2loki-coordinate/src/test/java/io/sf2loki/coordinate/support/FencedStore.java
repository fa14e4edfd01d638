package io.sf2loki.coordinate.support;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;

/**
 * A checkpoint store that offers its persisted epoch as the coordinators' floor and claims epochs
 * at acquire, as the engine uses it.
 */
public interface FencedStore extends CheckpointStore, EpochFloor, EpochClaim {}
