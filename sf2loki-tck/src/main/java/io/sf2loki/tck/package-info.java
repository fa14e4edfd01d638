/**
 * The sf2loki compatibility kit: abstract JUnit 5 classes that pin the contracts of the SPIs in
 * {@code io.sf2loki.spi}, for sf2loki's own implementations and for anyone else's.
 *
 * <p>A store's test extends {@link io.sf2loki.tck.CheckpointStoreContract} (or {@link
 * io.sf2loki.tck.EpochClaimContract}) and says how to open stores on one document; the kit's tests
 * then run against it. Add the module with {@code <scope>test</scope>}: its classes are tests.
 */
package io.sf2loki.tck;
