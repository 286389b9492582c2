package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.TypedValuesContract;

/** Every type_v3 type over HTTP: this adapter's JSON encoding against the emulator's. */
class EmulatorTypedValuesContractTest extends TypedValuesContract {
  @Override
  protected ClusterFixture newFixture() {
    return new EmulatorClusterFixture();
  }
}
