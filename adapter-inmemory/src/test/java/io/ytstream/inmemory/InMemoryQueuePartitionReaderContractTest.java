package io.ytstream.inmemory;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.QueuePartitionReaderContract;

class InMemoryQueuePartitionReaderContractTest extends QueuePartitionReaderContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
