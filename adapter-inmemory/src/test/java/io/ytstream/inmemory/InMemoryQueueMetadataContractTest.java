package io.ytstream.inmemory;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.QueueMetadataContract;

class InMemoryQueueMetadataContractTest extends QueueMetadataContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
