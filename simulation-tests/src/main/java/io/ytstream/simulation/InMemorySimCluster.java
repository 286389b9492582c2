package io.ytstream.simulation;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The harness's view of adapter-inmemory's {@link InMemoryCluster} on a {@link ManualClock}. */
final class InMemorySimCluster implements SimCluster {

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);
  private final Map<YPath, IncrementalTableReader> readers = new HashMap<>();

  @Override
  public YtCluster ports() {
    return cluster;
  }

  /** Whether queues created from now on declare {@code $timestamp}. */
  private boolean queueTimestamps;

  @Override
  public void declareQueueTimestamps() {
    queueTimestamps = true;
  }

  @Override
  public void createQueue(QueueId queue, int partitions) {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("q", "int64", false, true));
    columns.add(new Column("k", "int64", false, true));
    columns.add(new Column("v", "int64", false, true));
    columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    if (queueTimestamps) {
      columns.add(new Column("$timestamp", "uint64", false, false));
    }
    cluster.createOrderedTable(queue.path(), columns, partitions);
  }

  @Override
  public void recreateQueue(QueueId queue, int partitions) {
    // The consumer's registration names the queue by path, so it stays, as on a cluster.
    cluster.checkpoints().delete(queue.path(), false);
    createQueue(queue, partitions);
  }

  @Override
  public void createConsumer(ConsumerId consumer, List<QueueId> queues) {
    cluster.createConsumer(consumer.path());
    for (QueueId q : queues) {
      cluster.registerConsumer(q.path(), consumer.path(), true);
    }
  }

  @Override
  public void createOrderedTable(YPath table, List<String> columns) {
    List<Column> schema = new ArrayList<>();
    for (String c : columns) {
      schema.add(new Column(c, "int64", false, false));
    }
    cluster.createOrderedTable(table, schema, 1);
    readers.put(table, new IncrementalTableReader(cluster, table, List.of()));
  }

  @Override
  public void createOutputQueue(YPath queue, List<String> columns, int tablets) {
    List<Column> schema = new ArrayList<>();
    for (String c : columns) {
      schema.add(new Column(c, "int64", false, false));
    }
    cluster.createOrderedTable(queue, schema, tablets);
    readers.put(queue, new IncrementalTableReader(cluster, queue, List.of()));
  }

  @Override
  public void createQueueProducer(YPath producer) {
    cluster.createQueueProducer(producer);
  }

  @Override
  public List<Row> producerSessions(YPath producer) {
    return cluster.outputTables().readAll(producer);
  }

  @Override
  public long producerStamp(YPath producer) {
    return cluster.lastWriteTimestamp(producer);
  }

  @Override
  public void createSortedTable(YPath table, List<String> keyColumns, List<String> valueColumns) {
    List<Column> schema = new ArrayList<>();
    for (String c : keyColumns) {
      schema.add(new Column(c, c.equals(Verifier.SRC_QUEUE) ? "string" : "int64", true, false));
    }
    for (String c : valueColumns) {
      schema.add(new Column(c, "int64", false, false));
    }
    cluster.createSortedTable(table, schema);
    readers.put(table, new IncrementalTableReader(cluster, table, keyColumns));
  }

  @Override
  public void createStaticTable(YPath table, List<String> columns) {
    List<Column> schema = new ArrayList<>();
    for (String c : columns) {
      schema.add(new Column(c, "int64", false, false));
    }
    cluster.createStaticTable(table, schema);
    readers.put(table, IncrementalTableReader.ofStaticTable(cluster, table));
  }

  @Override
  public void append(QueueId queue, int partition, List<Row> rows) {
    cluster.appendToTablet(queue.path(), partition, rows);
  }

  @Override
  public void reshard(QueueId queue, int partitions) {
    cluster.reshard(queue.path(), partitions);
  }

  @Override
  public void trim(QueueId queue, int partition, long trimmedRowCount) {
    cluster.trimRows(queue.path(), partition, trimmedRowCount);
  }

  @Override
  public void setMaxRowsPerTabletTransaction(long limit) {
    cluster.setMaxRowsPerTabletPerTransaction((int) limit);
  }

  @Override
  public void advanceClock(long millis) {
    clock.advanceMillis(millis);
  }

  @Override
  public long consumerStamp(ConsumerId consumer) {
    return cluster.lastWriteTimestamp(consumer.path());
  }

  @Override
  public TableDelta readChanges(YPath table) {
    IncrementalTableReader reader = readers.get(table);
    if (reader == null) {
      throw new IllegalArgumentException("not a table the harness created: " + table);
    }
    return reader.read();
  }

  @Override
  public boolean transactionLive(TransactionId transaction) {
    return cluster.liveTransactions().contains(transaction)
        || cluster.masterTransactions().live(transaction.value());
  }
}
