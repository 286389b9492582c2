package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The delivery-modes benchmark: the cost of the exactly-once modes. Source and sink {@code yt} on
 * an in-memory cluster, {@code select id, upper(payload)}, AvailableNow with the default {@code
 * max_rows_per_partition} (100,000, so several batches), checkpoints {@code yt:///} on the same
 * cluster:
 *
 * <ul>
 *   <li>at-least-once and transactional append to an ordered table of 8 tablets (a transactional
 *       batch of 4 × 100,000 rows fits YTsaurus' 100,000 rows per tablet and transaction);
 *   <li>idempotent adds the service columns and upserts into a table sorted by them.
 * </ul>
 *
 * Each query runs on a fresh cluster (dropped afterwards, so outputs do not pile up in memory).
 */
final class ModeBench {

  static final String AT_LEAST_ONCE = "at-least-once";
  static final String TRANSACTIONAL = "transactional";
  static final String IDEMPOTENT = "idempotent";
  static final List<String> VARIANTS = List.of(AT_LEAST_ONCE, TRANSACTIONAL, IDEMPOTENT);

  private static final String QUEUE = "//bench/modes";
  private static final String OUTPUT = "//bench/out";
  private static final String TRANSACTIONAL_SETTING = "spark.yt.streaming.transactional";

  private final BenchContext ctx;

  ModeBench(BenchContext ctx) {
    this.ctx = ctx;
  }

  Map<String, Double> round() throws TimeoutException, StreamingQueryException {
    Map<String, Double> result = new LinkedHashMap<>();
    for (String mode : VARIANTS) {
      result.put(mode, run(mode));
    }
    return result;
  }

  private double run(String mode) throws TimeoutException, StreamingQueryException {
    String name = ctx.unique("modes-" + ctx.cluster.name());
    InMemoryCluster cluster = InMemoryClusters.getOrCreate(name);
    int partitions = ctx.options.partitions();
    long perPartition = ctx.options.modeRows() / partitions;
    BenchQueues.queue(cluster, QUEUE, partitions, perPartition);
    String consumer = BenchQueues.consumer(cluster, QUEUE, "//bench/consumer");
    boolean idempotent = mode.equals(IDEMPOTENT);
    if (idempotent) {
      BenchQueues.positionKeyedTable(cluster, OUTPUT);
    } else {
      cluster.createOrderedTable(YPath.of(OUTPUT), BenchQueues.COLUMNS, 8);
    }
    ctx.spark.conf().set("spark.hadoop.yt.proxy", "inmemory:" + name);
    ctx.spark.conf().set(TRANSACTIONAL_SETTING, Boolean.toString(mode.equals(TRANSACTIONAL)));
    try {
      Dataset<Row> rows =
          ctx.spark
              .readStream()
              .format("yt")
              .option("consumer_path", consumer)
              .option("include_service_columns", Boolean.toString(idempotent))
              .load(QUEUE);
      Dataset<Row> selected =
          idempotent
              ? rows.selectExpr(
                  BenchQueues.TABLET_INDEX_COLUMN,
                  BenchQueues.ROW_INDEX_COLUMN,
                  "id",
                  "upper(payload) AS payload")
              : rows.selectExpr("id", "upper(payload) AS payload");
      StreamingQuery query =
          selected
              .writeStream()
              .format("yt")
              .option("path", OUTPUT)
              .option("checkpointLocation", "yt:///bench/checkpoints/" + mode)
              .trigger(Trigger.AvailableNow())
              .start();
      query.awaitTermination();
      long written =
          idempotent
              ? cluster.rowCount(YPath.of(OUTPUT))
              : cluster.outputTables().readAll(YPath.of(OUTPUT)).size();
      long expected = perPartition * partitions;
      if (written != expected) {
        throw new IllegalStateException(mode + " wrote " + written + " rows, expected " + expected);
      }
      return QueryFigures.rowsPerSecond(query);
    } finally {
      ctx.spark.conf().unset(TRANSACTIONAL_SETTING);
      ctx.spark.conf().set("spark.hadoop.yt.proxy", ctx.inMemoryAddress);
      InMemoryClusters.remove(name);
    }
  }
}
