/**
 * The sf2loki compatibility kit: abstract JUnit 5 classes that pin the contracts of the SPIs in
 * {@code io.sf2loki.spi}, for sf2loki's own implementations and for anyone else's. Add the module
 * with {@code <scope>test</scope>}: its classes are tests.
 *
 * <ul>
 *   <li>Stores: {@link io.sf2loki.tck.CheckpointStoreContract}, {@link
 *       io.sf2loki.tck.EpochClaimContract} and, for stores of the Python-compatible document bytes,
 *       {@link io.sf2loki.tck.CheckpointDocumentContract}. A test says how to open stores on one
 *       document.
 *   <li>Coordinators: {@link io.sf2loki.tck.CoordinatorContract} for any coordinator; {@link
 *       io.sf2loki.tck.LeaseCoordinatorContract} and the property world {@link
 *       io.sf2loki.tck.LeaseCoordinatorProperties} for lease coordinators, driven through one
 *       {@link io.sf2loki.tck.LeaseElection} adapter, on {@link io.sf2loki.tck.SimulatedTime};
 *       {@link io.sf2loki.tck.ShardCoordinatorProperties} for lease coordinators balancing several
 *       shards over replicas (a {@link io.sf2loki.spi.ShardBalance}), through a {@link
 *       io.sf2loki.tck.ShardElection} adapter.
 *   <li>Doubles: {@link io.sf2loki.tck.FakeTerm}, {@link io.sf2loki.tck.FakeCheckpointStore},
 *       {@link io.sf2loki.tck.FakeEpochFloor}, {@link io.sf2loki.tck.RecordingLeadershipListener},
 *       {@link io.sf2loki.tck.Contender}.
 * </ul>
 */
package io.sf2loki.tck;
