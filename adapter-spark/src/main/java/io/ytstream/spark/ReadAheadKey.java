package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import java.util.Map;

/**
 * Which queue partition a {@link BoundaryReadAhead} entry reads, and through what: the cluster's
 * address and connection settings (the token among them, so two users never share rows read with
 * each other's credentials) and the consumer. {@link #toString} leaves the settings out.
 */
record ReadAheadKey(
    String address, Map<String, String> settings, ConsumerId consumer, PartitionId partition) {

  ReadAheadKey {
    settings = Map.copyOf(settings);
  }

  @Override
  public String toString() {
    return partition + " via " + consumer.path() + " on " + address;
  }
}
