package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;

/** Queues, consumers and output tables of the Spark harnesses, set up in-process. */
final class BenchQueues {

  static final List<Column> COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));

  static final String TABLET_INDEX_COLUMN = "__spyt_streaming_src_tablet_index";
  static final String ROW_INDEX_COLUMN = "__spyt_streaming_src_row_index";

  private BenchQueues() {}

  /**
   * Creates an ordered table of {@code partitions} tablets holding {@code rowsPerPartition} rows in
   * each: tablet p gets ids {@code p, p + partitions, ...} with payload {@code "p<id>"}, the same
   * rows {@link BareRows#build} makes.
   */
  static void queue(InMemoryCluster cluster, String path, int partitions, long rowsPerPartition) {
    cluster.createOrderedTable(YPath.of(path), COLUMNS, partitions);
    int chunk = 50_000;
    for (int p = 0; p < partitions; p++) {
      for (long from = 0; from < rowsPerPartition; from += chunk) {
        long to = Math.min(rowsPerPartition, from + chunk);
        List<Row> rows = new ArrayList<>((int) (to - from));
        for (long i = from; i < to; i++) {
          long id = i * partitions + p;
          rows.add(Row.of("$tablet_index", (long) p, "id", id, "payload", "p" + id));
        }
        cluster.outputTables().append(YPath.of(path), rows);
      }
    }
  }

  /** A new consumer registered for {@code queue}. */
  static String consumer(InMemoryCluster cluster, String queue, String path) {
    cluster.createConsumer(YPath.of(path));
    cluster.registerConsumer(YPath.of(queue), YPath.of(path), true);
    return path;
  }

  /** The idempotent receiver's output: sorted by the source position. */
  static void positionKeyedTable(InMemoryCluster cluster, String path) {
    cluster.createSortedTable(
        YPath.of(path),
        List.of(
            new Column(TABLET_INDEX_COLUMN, "int64", true, true),
            new Column(ROW_INDEX_COLUMN, "int64", true, true),
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false)));
  }

  /** Drops the rows of an ordered output table from memory (a trim of every tablet). */
  static long trimAll(InMemoryCluster cluster, String path) {
    long rows = 0;
    for (var b : cluster.partitions(YPath.of(path))) {
      rows += b.totalRowCount() - b.trimmedRowCount();
      cluster.trimRows(YPath.of(path), b.index(), b.totalRowCount());
    }
    return rows;
  }
}
