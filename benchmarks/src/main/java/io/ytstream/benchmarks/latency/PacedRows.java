package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * Pre-built Spark rows {@code (id, sent_us)} held in this JVM by name for {@link PacedSource}: a
 * ring of {@link #RING} rows per partition, reused in turn. The reader fills in {@code id}
 * (partition p hands out global row numbers {@code p, p + partitions, ...}, the spread the queue
 * producer uses), {@code sent_us} (the row's due time) and, in rows of four fields, the source
 * position (partition, index) when it hands a row out; Spark converts each row before asking for
 * the next. A ring instead of one row object per row sent: at 10,000 rows/s the whole run pre-built
 * was millions of rows (hundreds of MiB), whose collection paused the JVM in the next variant's
 * window.
 */
final class PacedRows {

  static final int RING = 4096;

  private static final Map<String, InternalRow[][]> BY_NAME = new ConcurrentHashMap<>();

  private PacedRows() {}

  /** Rings of rows of {@code width} long fields (2, or 4 with the source position). */
  static void build(String name, int partitions, int width) {
    InternalRow[][] rows = new InternalRow[partitions][RING];
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < RING; i++) {
        Object[] fields = new Object[width];
        Arrays.fill(fields, 0L);
        rows[p][i] = new GenericInternalRow(fields);
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
