package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.DataStreamWriter;
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
 *   <li>idempotent adds the service columns and upserts into a table sorted by them;
 *   <li>producer pushes into an ordered queue of 8 tablets through a queue producer with the sink's
 *       {@code producer_path}: one session per task, each task's share of a batch in one push;
 *   <li>producer-foreach does the same with {@code YtProducerForeachWriter}: the service columns,
 *       one session per source partition numbered by source row, pushes of up to 50,000 rows (the
 *       sink's default {@code dynBatchSize}).
 * </ul>
 *
 * Each query runs on a fresh cluster (dropped afterwards, so outputs do not pile up in memory).
 */
final class ModeBench {

  static final String AT_LEAST_ONCE = "at-least-once";
  static final String TRANSACTIONAL = "transactional";
  static final String IDEMPOTENT = "idempotent";
  static final String PRODUCER = "producer";
  static final String PRODUCER_FOREACH = "producer-foreach";
  static final List<String> VARIANTS =
      List.of(AT_LEAST_ONCE, TRANSACTIONAL, IDEMPOTENT, PRODUCER, PRODUCER_FOREACH);

  private static final String QUEUE = "//bench/modes";
  private static final String OUTPUT = "//bench/out";
  private static final String PRODUCER_PATH = "//bench/producer";
  private static final int PUSH_ROWS = 50_000;
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
    boolean foreach = mode.equals(PRODUCER_FOREACH);
    boolean producer = foreach || mode.equals(PRODUCER);
    if (idempotent) {
      BenchQueues.positionKeyedTable(cluster, OUTPUT);
    } else {
      cluster.createOrderedTable(YPath.of(OUTPUT), BenchQueues.COLUMNS, 8);
    }
    if (producer) {
      cluster.createQueueProducer(YPath.of(PRODUCER_PATH));
    }
    ctx.spark.conf().set("spark.hadoop.yt.proxy", "inmemory:" + name);
    ctx.spark.conf().set(TRANSACTIONAL_SETTING, Boolean.toString(mode.equals(TRANSACTIONAL)));
    try {
      Dataset<Row> rows =
          ctx.spark
              .readStream()
              .format("yt")
              .option("consumer_path", consumer)
              .option("include_service_columns", Boolean.toString(idempotent || foreach))
              .load(QUEUE);
      Dataset<Row> selected =
          idempotent || foreach
              ? rows.selectExpr(
                  BenchQueues.TABLET_INDEX_COLUMN,
                  BenchQueues.ROW_INDEX_COLUMN,
                  "id",
                  "upper(payload) AS payload")
              : rows.selectExpr("id", "upper(payload) AS payload");
      DataStreamWriter<Row> writer = selected.writeStream();
      writer =
          foreach
              ? writer.foreach(
                  YtProducerForeachWriter.builder()
                      .path(OUTPUT)
                      .producerPath(PRODUCER_PATH)
                      .maxBufferedRows(PUSH_ROWS)
                      .build())
              : writer.format("yt").option("path", OUTPUT);
      if (mode.equals(PRODUCER)) {
        writer = writer.option("producer_path", PRODUCER_PATH);
      }
      StreamingQuery query =
          writer
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
