package io.ytstream.inmemory;

import io.ytstream.ports.contract.CheckpointStoreContract;
import io.ytstream.ports.contract.ClusterFixture;

class InMemoryCheckpointStoreContractTest extends CheckpointStoreContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
