package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.TypedValuesContract;

/**
 * Every type_v3 type over HTTP with {@code yt.http.format=json}: JSON rows with {@code $}-keys
 * escaped as the server's JSON writer and reader require.
 */
class EmulatorJsonTypedValuesContractTest extends TypedValuesContract {
  @Override
  protected ClusterFixture newFixture() {
    return new EmulatorClusterFixture(false, RowWireFormat.JSON);
  }
}
