package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;

/**
 * A fresh in-memory cluster for one test, selected for the shared session through {@code
 * spark.hadoop.yt.proxy}, with helpers to create queues, consumers and tables and to look inside.
 */
final class TestCluster {

  private static final AtomicInteger COUNTER = new AtomicInteger();

  static final List<Column> QUEUE_COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));

  final String name;
  final String address;
  final InMemoryCluster cluster;

  private TestCluster(String name) {
    this.name = name;
    this.address = "inmemory:" + name;
    this.cluster = InMemoryClusters.getOrCreate(name);
  }

  /** A new cluster, made the session's default. */
  static TestCluster create(SparkSession spark, String prefix) {
    TestCluster c = new TestCluster(prefix + COUNTER.incrementAndGet());
    spark.conf().set("spark.hadoop.yt.proxy", c.address);
    return c;
  }

  TestCluster queue(String path, int tablets) {
    cluster.createOrderedTable(YPath.of(path), QUEUE_COLUMNS, tablets);
    return this;
  }

  TestCluster consumer(String consumer, String... queues) {
    if (!cluster.exists(YPath.of(consumer))) {
      cluster.createConsumer(YPath.of(consumer));
    }
    for (String q : queues) {
      cluster.registerConsumer(YPath.of(q), YPath.of(consumer), true);
    }
    return this;
  }

  TestCluster orderedTable(String path, int tablets) {
    cluster.createOrderedTable(YPath.of(path), QUEUE_COLUMNS, tablets);
    return this;
  }

  TestCluster orderedTable(String path, List<Column> columns, int tablets) {
    cluster.createOrderedTable(YPath.of(path), columns, tablets);
    return this;
  }

  TestCluster sortedTable(String path, List<Column> columns) {
    cluster.createSortedTable(YPath.of(path), columns);
    return this;
  }

  /** Appends rows {@code id = from .. to-1} (payload "p<id>") to one tablet of a queue. */
  void produce(String queue, int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of(queue), rows);
  }

  List<Row> rows(String table) {
    return cluster.outputTables().readAll(YPath.of(table));
  }

  List<Long> ids(String table) {
    List<Long> ids = new ArrayList<>();
    for (Row r : rows(table)) {
      ids.add((Long) r.get("id"));
    }
    ids.sort(Long::compare);
    return ids;
  }

  StreamOffsets consumerOffsets(String consumer, String queue) {
    return cluster
        .consumerOffsets()
        .read(new ConsumerId(name, YPath.of(consumer)), new QueueId(name, YPath.of(queue)));
  }

  long consumerOffset(String consumer, String queue, int partition) {
    return consumerOffsets(consumer, queue)
        .getOrDefault(
            new io.ytstream.core.model.PartitionId(new QueueId(name, YPath.of(queue)), partition),
            0);
  }

  long consumerTotal(String consumer, String queue) {
    return consumerOffsets(consumer, queue).total();
  }

  /**
   * Deletes the newest {@code commits/N} of a checkpoint: what a driver that stopped after the sink
   * committed batch N, but before Spark logged it, leaves behind. Returns N.
   */
  long dropLastCommit(String checkpoint) {
    YPath commits = YPath.of(checkpoint).child("commits");
    long last = -1;
    for (String name : cluster.checkpoints().list(commits)) {
      if (name.matches("[0-9]+")) {
        last = Math.max(last, Long.parseLong(name));
      }
    }
    if (last < 0) {
      throw new AssertionError("no commits under " + commits);
    }
    cluster.checkpoints().delete(commits.child(Long.toString(last)), false);
    return last;
  }

  static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }
}
