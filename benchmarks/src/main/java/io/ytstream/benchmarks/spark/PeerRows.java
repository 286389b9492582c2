package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of the peer benchmark, the same in Kafka and in the emulator: an id and a 40-byte
 * string; in Kafka the value is their JSON, which the Kafka query parses with {@code from_json}
 * into the same two typed columns the yt source reads.
 */
public final class PeerRows {

  /** The typed columns of both queries. */
  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("payload", DataTypes.StringType, false);

  private static final List<Column> COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));

  /** The same columns with {@code id} as the key, for a sorted output. */
  private static final List<Column> KEYED_COLUMNS =
      List.of(new Column("id", "int64", true, true), new Column("payload", "string", false, false));

  private PeerRows() {}

  /** {@code payload-} and the id in 32 digits: 40 bytes. */
  static String payload(long id) {
    return String.format(Locale.ROOT, "payload-%032d", id);
  }

  static String json(long id) {
    return "{\"id\":" + id + ",\"payload\":\"" + payload(id) + "\"}";
  }

  /**
   * Creates the ordered table {@code path} of {@code partitions} tablets, tablet p holding the ids
   * {@code p, p + partitions, ...}, {@code rowsPerPartition} of them.
   */
  public static void fill(
      InMemoryCluster cluster, String path, int partitions, long rowsPerPartition) {
    cluster.createOrderedTable(YPath.of(path), COLUMNS, partitions);
    int chunk = 50_000;
    for (int p = 0; p < partitions; p++) {
      for (long from = 0; from < rowsPerPartition; from += chunk) {
        long to = Math.min(rowsPerPartition, from + chunk);
        List<Row> rows = new ArrayList<>((int) (to - from));
        for (long i = from; i < to; i++) {
          long id = i * partitions + p;
          rows.add(Row.of("$tablet_index", (long) p, "id", id, "payload", payload(id)));
        }
        cluster.outputTables().append(YPath.of(path), rows);
      }
    }
  }

  /**
   * Creates an empty output queue {@code path} of these columns with {@code tablets} tablets, and
   * the queue producer {@code producer} that writes into it exactly once.
   */
  public static void createOutputQueue(
      InMemoryCluster cluster, String path, int tablets, String producer) {
    cluster.createOrderedTable(YPath.of(path), COLUMNS, tablets);
    cluster.createQueueProducer(YPath.of(producer));
  }

  /** Creates an empty sorted table {@code path} of these columns keyed by {@code id}. */
  public static void createSortedById(InMemoryCluster cluster, String path) {
    cluster.createSortedTable(YPath.of(path), KEYED_COLUMNS);
  }
}
