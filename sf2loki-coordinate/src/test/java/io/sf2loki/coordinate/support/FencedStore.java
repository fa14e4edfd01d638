package io.sf2loki.coordinate.support;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochFloor;

/** A checkpoint store that also offers its persisted epoch as the coordinators' floor. */
public interface FencedStore extends CheckpointStore, EpochFloor {}
