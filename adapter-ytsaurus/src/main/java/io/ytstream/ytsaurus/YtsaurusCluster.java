package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.core.schema.TableSchema;
import io.ytstream.core.schema.TableSchemaJson;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.spi.YtCluster;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Every port over the YTsaurus HTTP API v4 of one cluster. {@link #connect} reads {@code
 * //sys/@cluster_name} (unless the config names the cluster), which also checks the address and the
 * token before any streaming starts.
 */
public final class YtsaurusCluster implements YtCluster {

  private final YtsaurusClientConfig config;
  private final YtHttpClient client;
  private final HeavyProxies heavyProxies;
  private final JsonRows rows;
  private final ConsumerRows consumerRows;
  private final ScheduledExecutorService scheduler;
  private final String name;
  private final Map<String, Map<String, YtType>> columnTypes = new ConcurrentHashMap<>();

  private final QueuePartitionReader queueReader = new HttpQueuePartitionReader(this);
  private final QueueMetadata queueMetadata = new HttpQueueMetadata(this);
  private final ConsumerOffsets consumerOffsets = new HttpConsumerOffsets(this);
  private final TabletTransactions transactions = new HttpTabletTransactions(this);
  private final OutputTables outputTables = new HttpOutputTables(this);
  private final TableMetadata tableMetadata = new HttpTableMetadata(this);
  private final CheckpointStore checkpoints = new HttpCheckpointStore(this);

  private YtsaurusCluster(YtsaurusClientConfig config) {
    this.config = config;
    this.client = new YtHttpClient(config);
    this.heavyProxies = new HeavyProxies(client, config.discoverHeavyProxies());
    this.rows = new JsonRows();
    this.consumerRows = new ConsumerRows(this);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "ytstream-tx-pinger");
              thread.setDaemon(true);
              return thread;
            });
    this.name = config.clusterName().orElseGet(this::readClusterName);
  }

  public static YtsaurusCluster connect(YtsaurusClientConfig config) {
    return new YtsaurusCluster(config);
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

  JsonRows rows() {
    return rows;
  }

  /**
   * Column types of a table for the wire encoding, from {@code get <table>/@schema}, read once per
   * table and connection (a table re-created under the same path with another schema needs a new
   * connection).
   */
  Map<String, YtType> columnTypes(YPath table) {
    Map<String, YtType> known = columnTypes.get(table.value());
    if (known != null) {
      return known;
    }
    Map<String, YtType> types = new LinkedHashMap<>();
    schema(table).columns().forEach(c -> types.put(c.name(), c.type()));
    Map<String, YtType> result = Collections.unmodifiableMap(types);
    columnTypes.put(table.value(), result);
    return result;
  }

  /** {@code get <table>/@schema}, parsed by core's {@link TableSchemaJson}. */
  TableSchema schema(YPath table) {
    ObjectNode params = client.params();
    params.put("path", table.value() + "/@schema");
    JsonNode value =
        client.structured(client.primaryProxy(), Command.GET, params, Repeat.READ).path("value");
    try {
      return TableSchemaJson.parse(value.toString());
    } catch (IllegalArgumentException e) {
      throw new YtTransportException(
          "the @schema of " + table.value() + " cannot be read: " + e.getMessage(), e);
    }
  }

  ConsumerRows consumerRows() {
    return consumerRows;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Consumers and the queues read through this connection live on this cluster. */
  void checkLocal(String cluster, String what) {
    if (!cluster.equals(name)) {
      throw new IllegalArgumentException(
          what + " is on cluster " + cluster + ", but this connection is to cluster " + name);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public QueuePartitionReader queueReader() {
    return queueReader;
  }

  @Override
  public QueueMetadata queueMetadata() {
    return queueMetadata;
  }

  @Override
  public ConsumerOffsets consumerOffsets() {
    return consumerOffsets;
  }

  @Override
  public TabletTransactions transactions() {
    return transactions;
  }

  @Override
  public OutputTables outputTables() {
    return outputTables;
  }

  @Override
  public TableMetadata tableMetadata() {
    return tableMetadata;
  }

  @Override
  public CheckpointStore checkpoints() {
    return checkpoints;
  }

  @Override
  public TimeSource time() {
    return System::currentTimeMillis;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }

  @Override
  public String toString() {
    return "YtsaurusCluster{" + name + " via " + config + "}";
  }
}
