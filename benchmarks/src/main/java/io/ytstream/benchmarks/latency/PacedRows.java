package io.ytstream.benchmarks.latency;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * Pre-built Spark rows {@code (id, sent_us)} held in this JVM by name for {@link PacedSource}:
 * partition p holds global row numbers {@code p, p + partitions, ...}, the same spread the queue
 * producer uses. The reader fills in {@code sent_us} (the row's due time) when it hands a row out;
 * building the rows is not measured.
 */
final class PacedRows {

  private static final Map<String, InternalRow[][]> BY_NAME = new ConcurrentHashMap<>();

  private PacedRows() {}

  static void build(String name, int partitions, int rowsPerPartition) {
    InternalRow[][] rows = new InternalRow[partitions][rowsPerPartition];
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < rowsPerPartition; i++) {
        rows[p][i] = new GenericInternalRow(new Object[] {(long) i * partitions + p, 0L});
      }
    }
    BY_NAME.put(name, rows);
  }

  static InternalRow[] partition(String name, int partition) {
    InternalRow[][] rows = BY_NAME.get(name);
    if (rows == null) {
      throw new IllegalStateException("no paced rows named " + name + "; build them first");
    }
    return rows[partition];
  }

  static void drop(String name) {
    BY_NAME.remove(name);
  }
}
