package io.ytstream.benchmarks.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Pre-built Spark rows {@code (id, payload = "p<id>")} held in this JVM by name, split into
 * partitions: what {@link BareSource} reads. Building them is not measured; reading them is the
 * least any source must do, so a query over them is the limit a real source is compared with.
 */
final class BareRows {

  private static final Map<String, InternalRow[][]> BY_NAME = new ConcurrentHashMap<>();

  private BareRows() {}

  /**
   * Builds {@code rowsPerPartition} rows in each of {@code partitions} partitions; partition p
   * holds ids {@code p, p + partitions, ...}, as the benchmark queues do.
   */
  static void build(String name, int partitions, int rowsPerPartition) {
    InternalRow[][] rows = new InternalRow[partitions][rowsPerPartition];
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < rowsPerPartition; i++) {
        long id = (long) i * partitions + p;
        rows[p][i] = new GenericInternalRow(new Object[] {id, UTF8String.fromString("p" + id)});
      }
    }
    BY_NAME.put(name, rows);
  }

  static InternalRow[] partition(String name, int partition) {
    InternalRow[][] rows = BY_NAME.get(name);
    if (rows == null) {
      throw new IllegalStateException("no bare rows named " + name + "; build them first");
    }
    return rows[partition];
  }

  static int partitions(String name) {
    return BY_NAME.get(name).length;
  }

  static int rowsPerPartition(String name) {
    return BY_NAME.get(name)[0].length;
  }

  static void drop(String name) {
    BY_NAME.remove(name);
  }
}
