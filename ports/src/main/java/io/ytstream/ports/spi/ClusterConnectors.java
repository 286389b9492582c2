package io.ytstream.ports.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds the adapter for a cluster address through {@link ServiceLoader}. The connectors seen
 * through this class's own class loader are looked up once and kept: a lookup reads {@code
 * META-INF/services} from every jar on the class path (hundreds under Spark), and Spark opens a
 * cluster handle per task, for the reader and for each writer. An address none of them accepts is
 * looked up again before it fails, so an adapter added to the class path later is still found.
 */
public final class ClusterConnectors {

  private static final ClassLoader OWN_LOADER = ClusterConnectors.class.getClassLoader();

  /** The connectors of {@link #OWN_LOADER}, once looked up. */
  private static volatile List<ClusterConnector> ownConnectors;

  private ClusterConnectors() {}

  /** Connectors on the class path, ordered by name so that the choice is deterministic. */
  public static List<ClusterConnector> available(ClassLoader loader) {
    if (loader != OWN_LOADER) {
      return load(loader);
    }
    List<ClusterConnector> known = ownConnectors;
    if (known == null) {
      known = load(loader);
      ownConnectors = known;
    }
    return known;
  }

  private static List<ClusterConnector> load(ClassLoader loader) {
    List<ClusterConnector> found = new ArrayList<>();
    ServiceLoader.load(ClusterConnector.class, loader).forEach(found::add);
    found.sort(Comparator.comparing(ClusterConnector::name));
    return List.copyOf(found);
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
    Optional<ClusterConnector> accepting = accepting(connectors, address);
    if (accepting.isEmpty() && loader == OWN_LOADER) {
      // Kept connectors may predate a jar added since (e.g. by SparkContext.addJar): look again.
      connectors = load(loader);
      ownConnectors = connectors;
      accepting = accepting(connectors, address);
    }
    if (accepting.isPresent()) {
      return accepting.get().connect(address, settings);
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

  private static Optional<ClusterConnector> accepting(
      List<ClusterConnector> connectors, String address) {
    for (ClusterConnector connector : connectors) {
      if (connector.accepts(address)) {
        return Optional.of(connector);
      }
    }
    return Optional.empty();
  }
}
