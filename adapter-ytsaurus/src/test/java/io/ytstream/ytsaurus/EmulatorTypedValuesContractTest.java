package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.TypedValuesContract;

/** Every type_v3 type over HTTP in binary YSON, the default row format, against the emulator. */
class EmulatorTypedValuesContractTest extends TypedValuesContract {
  @Override
  protected ClusterFixture newFixture() {
    return new EmulatorClusterFixture();
  }
}
