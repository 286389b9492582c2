package io.ytstream.inmemory;

import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;

/**
 * Connects {@code inmemory:<name>} to the JVM-wide cluster of that name ({@link InMemoryClusters}).
 */
public final class InMemoryConnector implements ClusterConnector {

  static final String PREFIX = "inmemory:";

  @Override
  public String name() {
    return "inmemory";
  }

  @Override
  public String addressForms() {
    return "inmemory:<name>, e.g. inmemory:demo (a cluster in this JVM, created on first use)";
  }

  @Override
  public boolean accepts(String address) {
    return address != null
        && address.startsWith(PREFIX)
        && address.length() > PREFIX.length()
        && !address.substring(PREFIX.length()).contains("/");
  }

  @Override
  public YtCluster connect(String address, ConnectionSettings settings) {
    if (!accepts(address)) {
      throw new IllegalArgumentException(
          "not an in-memory cluster address: '" + address + "'; expected " + addressForms());
    }
    return InMemoryClusters.getOrCreate(address.substring(PREFIX.length()));
  }
}
