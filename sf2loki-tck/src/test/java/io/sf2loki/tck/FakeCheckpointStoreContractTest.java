package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;

/** The kit's own in-memory store keeps the contract it is offered with. */
class FakeCheckpointStoreContractTest extends EpochClaimContract {

  private FakeCheckpointStore document;

  @Override
  protected void useNewDocument() {
    document = new FakeCheckpointStore();
  }

  @Override
  protected CheckpointStore newStore() {
    return document.sibling();
  }
}
