package io.ytstream.ports.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the adapter for a cluster address through {@link ServiceLoader}. */
public final class ClusterConnectors {

  private ClusterConnectors() {}

  /** Connectors on the class path, ordered by name so that the choice is deterministic. */
  public static List<ClusterConnector> available(ClassLoader loader) {
    List<ClusterConnector> found = new ArrayList<>();
    ServiceLoader.load(ClusterConnector.class, loader).forEach(found::add);
    found.sort(Comparator.comparing(ClusterConnector::name));
    return found;
  }

  public static YtCluster connect(String address, ConnectionSettings settings) {
    return connect(address, settings, Thread.currentThread().getContextClassLoader());
  }

  /**
   * Connects with the first connector (by name) that accepts {@code address}.
   *
   * @throws IllegalArgumentException naming the address and the forms that are accepted
   */
  public static YtCluster connect(String address, ConnectionSettings settings, ClassLoader loader) {
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException(
          "no YTsaurus cluster address: set spark.hadoop.yt.proxy (or the option proxy), e.g."
              + " inmemory:demo or http://localhost:8000");
    }
    List<ClusterConnector> connectors = available(loader);
    for (ClusterConnector connector : connectors) {
      if (connector.accepts(address)) {
        return connector.connect(address, settings);
      }
    }
    StringBuilder forms = new StringBuilder();
    for (ClusterConnector connector : connectors) {
      forms.append("\n  ").append(connector.name()).append(": ").append(connector.addressForms());
    }
    throw new IllegalArgumentException(
        "no ytstream adapter accepts the cluster address '"
            + address
            + "'. "
            + (connectors.isEmpty()
                ? "No adapter is on the class path: add io.ytstream:adapter-inmemory or"
                    + " io.ytstream:adapter-ytsaurus."
                : "Adapters on the class path accept:" + forms));
  }
}
