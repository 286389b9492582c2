package io.ytstream.benchmarks.latency;

import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;

/**
 * Address {@code timed:<address>}: connects to {@code <address>} with whichever adapter accepts it
 * and times every append and upsert of output rows (see {@link TimedCluster}). The benchmark hands
 * this address to the ForeachWriters' {@code proxy(..)}, so the sink time is taken in the writer's
 * own thread right after its write request returned, i.e. when the rows were durable.
 */
public final class TimedConnector implements ClusterConnector {

  static final String PREFIX = "timed:";

  @Override
  public String name() {
    return "timed";
  }

  @Override
  public String addressForms() {
    return PREFIX + "<any other address> (benchmarks only: times output writes)";
  }

  @Override
  public boolean accepts(String address) {
    return address != null && address.startsWith(PREFIX);
  }

  @Override
  public YtCluster connect(String address, ConnectionSettings settings) {
    String inner = address.substring(PREFIX.length());
    return new TimedCluster(
        ClusterConnectors.connect(inner, settings, TimedConnector.class.getClassLoader()));
  }
}
