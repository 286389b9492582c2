package io.ytstream.inmemory;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.ConsumerOffsetsContract;

class InMemoryConsumerOffsetsContractTest extends ConsumerOffsetsContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
