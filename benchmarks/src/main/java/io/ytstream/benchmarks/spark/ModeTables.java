package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;

/**
 * The outputs of the modes benchmark, made where the server runs (in the emulator's JVM, through
 * {@code StoreMain}): {@code ordered}, an ordered table of 8 tablets; {@code sorted}, a table
 * sorted by the source position (the idempotent receiver's); {@code producer}, a queue producer.
 */
public final class ModeTables {

  static final String ORDERED = "ordered";
  static final String SORTED = "sorted";
  static final String PRODUCER = "producer";

  private ModeTables() {}

  public static void create(InMemoryCluster cluster, String path, String kind) {
    switch (kind) {
      case ORDERED -> cluster.createOrderedTable(YPath.of(path), BenchQueues.COLUMNS, 8);
      case SORTED -> BenchQueues.positionKeyedTable(cluster, path);
      case PRODUCER -> cluster.createQueueProducer(YPath.of(path));
      default ->
          throw new IllegalArgumentException(
              "a mode table is ordered, sorted or producer, got " + kind);
    }
  }

  /** The rows in {@code path}, an {@code ordered} or a {@code sorted} table. */
  public static long rows(InMemoryCluster cluster, String path, String kind) {
    return kind.equals(SORTED)
        ? cluster.rowCount(YPath.of(path))
        : cluster.outputTables().readAll(YPath.of(path)).size();
  }
}
