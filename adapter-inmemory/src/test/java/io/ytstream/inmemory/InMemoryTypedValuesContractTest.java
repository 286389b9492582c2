package io.ytstream.inmemory;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.TypedValuesContract;

class InMemoryTypedValuesContractTest extends TypedValuesContract {

  @Override
  protected ClusterFixture newFixture() {
    return new InMemoryClusterFixture();
  }
}
