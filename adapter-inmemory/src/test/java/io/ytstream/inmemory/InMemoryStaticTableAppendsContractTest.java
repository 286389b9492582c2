package io.ytstream.inmemory;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.StaticTableAppendsContract;

class InMemoryStaticTableAppendsContractTest extends StaticTableAppendsContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
