package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.QueueProducersContract;

/**
 * Queue producers over HTTP with {@code yt.http.format=json}: pushed rows name {@code
 * $sequence_number} and {@code $tablet_index} as {@code $$sequence_number} and {@code
 * $$tablet_index}, as the server's JSON reader requires.
 */
class EmulatorJsonQueueProducersContractTest extends QueueProducersContract {
  @Override
  protected ClusterFixture newFixture() {
    return new EmulatorClusterFixture(false, RowWireFormat.JSON);
  }
}
