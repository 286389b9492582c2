package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What it costs to talk to one cluster with one configuration: the HTTP client (its pool of
 * kept-alive connections), the heavy-proxy list from {@code /hosts}, the thread that closes it once
 * idle, the cluster's name and the column types of the tables it read or wrote ({@link
 * ColumnTypesCache}). {@link YtsaurusCluster} handles use it; {@link SharedProxyConnections} lets
 * every handle of a JVM with the same address and settings share one.
 */
final class ProxyConnection {

  private final YtsaurusClientConfig config;
  private final YtHttpClient client;
  private final HeavyProxies heavyProxies;
  private final ScheduledExecutorService scheduler;
  private final String clusterName;
  private final ColumnTypesCache columnTypes = new ColumnTypesCache(System::currentTimeMillis);

  private ProxyConnection(YtsaurusClientConfig config) {
    this.config = config;
    this.client = new YtHttpClient(config);
    this.heavyProxies = new HeavyProxies(client, config.discoverHeavyProxies(), config.failover());
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "ytstream-connection-idle-check");
              thread.setDaemon(true);
              return thread;
            });
    try {
      this.clusterName = config.clusterName().orElseGet(this::readClusterName);
    } catch (RuntimeException e) {
      scheduler.shutdownNow();
      client.close();
      throw e;
    }
  }

  /**
   * Opens a connection: reads {@code //sys/@cluster_name} (unless the config names the cluster),
   * which also checks the address, the certificate and the token.
   */
  static ProxyConnection open(YtsaurusClientConfig config) {
    return new ProxyConnection(config);
  }

  private String readClusterName() {
    ObjectNode params = client.params();
    params.put("path", "//sys/@cluster_name");
    String value =
        client
            .structured(client.primaryProxy(), Command.GET, params, Repeat.READ)
            .path("value")
            .asText("");
    if (value.isEmpty()) {
      throw new YtTransportException(
          "//sys/@cluster_name of " + config.proxy() + " is empty; set yt.cluster.name", null);
    }
    return value;
  }

  YtsaurusClientConfig config() {
    return config;
  }

  YtHttpClient client() {
    return client;
  }

  HeavyProxies heavyProxies() {
    return heavyProxies;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  String clusterName() {
    return clusterName;
  }

  ColumnTypesCache columnTypes() {
    return columnTypes;
  }

  /** Stops the idle-check thread and closes the kept-alive connections. */
  void close() {
    scheduler.shutdownNow();
    client.close();
  }
}
