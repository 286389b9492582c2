package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.types.schema.TableSchema;
import io.ytstream.types.schema.TableSchemaJson;
import io.ytstream.types.v3.YtType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Every ytstream port over the YTsaurus HTTP API v4 of one cluster: a light handle over a {@link
 * ProxyConnection}. {@link #connect} opens a connection of its own; {@link #connectShared} (what
 * the connector SPI uses) shares one per configuration per JVM ({@link SharedProxyConnections}).
 * Opening a connection reads {@code //sys/@cluster_name} (unless the config names the cluster),
 * which also checks the address, the certificate and the token before any streaming starts.
 */
public final class YtsaurusCluster implements YtCluster {

  private static final YsonRows ROWS = new YsonRows();

  private final ProxyConnection connection;
  private final Consumer<ProxyConnection> release;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConsumerRowQueries consumerRows;

  private final HttpQueuePartitionReader queueReader = new HttpQueuePartitionReader(this);
  private final QueueMetadata queueMetadata = new HttpQueueMetadata(this);
  private final ConsumerOffsets consumerOffsets = new HttpConsumerOffsets(this);
  private final TabletTransactions transactions = new HttpTabletTransactions(this);
  private final OutputTables outputTables = new HttpOutputTables(this);
  private final TableMetadata tableMetadata = new HttpTableMetadata(this);
  private final CheckpointStore checkpoints = new HttpCheckpointStore(this);
  private final QueueProducers queueProducers = new HttpQueueProducers(this);
  private final StaticTableAppends staticTableAppends = new HttpStaticTableAppends(this);

  private YtsaurusCluster(ProxyConnection connection, Consumer<ProxyConnection> release) {
    this.connection = connection;
    this.release = release;
    this.consumerRows = new ConsumerRowQueries(this);
  }

  /** A handle with a connection of its own, closed with it. */
  public static YtsaurusCluster connect(YtsaurusClientConfig config) {
    return new YtsaurusCluster(ProxyConnection.open(config), ProxyConnection::close);
  }

  /**
   * A handle over the JVM's shared connection for {@code config}: the HTTP client, heavy-proxy
   * list, cluster name and column types are reused.
   */
  public static YtsaurusCluster connectShared(YtsaurusClientConfig config) {
    return new YtsaurusCluster(
        SharedProxyConnections.acquire(config), SharedProxyConnections::release);
  }

  ProxyConnection connection() {
    return connection;
  }

  YtsaurusClientConfig config() {
    return connection.config();
  }

  YtHttpClient client() {
    return connection.client();
  }

  HeavyProxies heavyProxies() {
    return connection.heavyProxies();
  }

  /** The row codec of the tabular commands: binary YSON, the one format the client speaks. */
  YsonRows rows() {
    return ROWS;
  }

  /**
   * Column types of a table for the wire encoding, from {@code get <table>/@schema}, shared by the
   * handles of this connection ({@link ColumnTypesCache}: read again after a minute).
   */
  Map<String, YtType> columnTypes(YPath table) {
    return connection.columnTypes().get(table, this::readColumnTypes);
  }

  private Map<String, YtType> readColumnTypes(YPath table) {
    Map<String, YtType> types = new LinkedHashMap<>();
    schema(table).columns().forEach(c -> types.put(c.name(), c.type()));
    return Collections.unmodifiableMap(types);
  }

  /** {@code get <table>/@schema}, parsed by yt-types' {@link TableSchemaJson}. */
  TableSchema schema(YPath table) {
    YtHttpClient client = client();
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

  ConsumerRowQueries consumerRows() {
    return consumerRows;
  }

  /** Consumers and the queues read through this connection live on this cluster. */
  void checkLocal(String cluster, String what) {
    if (!cluster.equals(name())) {
      throw new IllegalArgumentException(
          what + " is on cluster " + cluster + ", but this connection is to cluster " + name());
    }
  }

  @Override
  public String name() {
    return connection.clusterName();
  }

  @Override
  public QueuePartitionReader queueReader() {
    return queueReader;
  }

  @Override
  public QueueRangeReader queueRangeReader() {
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
  public QueueProducers queueProducers() {
    return queueProducers;
  }

  @Override
  public StaticTableAppends staticTableAppends() {
    return staticTableAppends;
  }

  @Override
  public TimeSource time() {
    return System::currentTimeMillis;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release.accept(connection);
    }
  }

  @Override
  public String toString() {
    return "YtsaurusCluster{" + name() + " via " + config() + "}";
  }
}
