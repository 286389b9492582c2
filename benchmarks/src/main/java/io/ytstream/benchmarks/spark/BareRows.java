package io.ytstream.benchmarks.spark;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Pre-built Spark rows {@code (id, payload = "p<id>")} held in this JVM by name, split into
 * partitions: what {@link BareSource} reads. Building them is not measured; reading them is the
 * least any source must do, so a query over them is the limit a real source is compared with. The
 * same rows are also kept as stored values (a {@code long} and UTF-8 bytes), for a reader that
 * builds its Spark rows as any real source must.
 */
final class BareRows {

  private static final Map<String, InternalRow[][]> BY_NAME = new ConcurrentHashMap<>();
  private static final Map<String, StoredValues> VALUES_BY_NAME = new ConcurrentHashMap<>();

  /** Per partition, each row's id and its payload's UTF-8 bytes. */
  record StoredValues(long[][] ids, byte[][][] payloads) {}

  private BareRows() {}

  /**
   * Builds {@code rowsPerPartition} rows in each of {@code partitions} partitions; partition p
   * holds ids {@code p, p + partitions, ...}, as the benchmark queues do.
   */
  static void build(String name, int partitions, int rowsPerPartition) {
    InternalRow[][] rows = new InternalRow[partitions][rowsPerPartition];
    long[][] ids = new long[partitions][rowsPerPartition];
    byte[][][] payloads = new byte[partitions][rowsPerPartition][];
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < rowsPerPartition; i++) {
        long id = (long) i * partitions + p;
        byte[] payload = ("p" + id).getBytes(StandardCharsets.UTF_8);
        ids[p][i] = id;
        payloads[p][i] = payload;
        rows[p][i] = new GenericInternalRow(new Object[] {id, UTF8String.fromBytes(payload)});
      }
    }
    BY_NAME.put(name, rows);
    VALUES_BY_NAME.put(name, new StoredValues(ids, payloads));
  }

  static InternalRow[] partition(String name, int partition) {
    InternalRow[][] rows = BY_NAME.get(name);
    if (rows == null) {
      throw new IllegalStateException("no bare rows named " + name + "; build them first");
    }
    return rows[partition];
  }

  static StoredValues values(String name) {
    StoredValues values = VALUES_BY_NAME.get(name);
    if (values == null) {
      throw new IllegalStateException("no bare rows named " + name + "; build them first");
    }
    return values;
  }

  static int partitions(String name) {
    return BY_NAME.get(name).length;
  }

  static int rowsPerPartition(String name) {
    return BY_NAME.get(name)[0].length;
  }

  static void drop(String name) {
    BY_NAME.remove(name);
    VALUES_BY_NAME.remove(name);
  }
}
