package io.ytstream.benchmarks.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The batch-overhead benchmark: the fixed cost of a micro-batch. {@code ProcessingTime(0)} over a
 * one-partition queue with {@code max_rows_per_partition=1}, so every batch has exactly one row,
 * into the {@code noop} sink; batches per second over {@link SparkBenchOptions#batches()} batches
 * after {@link SparkBenchOptions#SKIPPED_BATCHES}. The source is our {@code yt} source on the
 * in-memory cluster in every variant; only the checkpoint differs:
 *
 * <ul>
 *   <li>{@code floor}: {@link NoIoCheckpointFileManager}, Spark's cost with checkpoint writes that
 *       cost nothing;
 *   <li>{@code yt:/// in-memory}: the {@code yt://} file system on the in-memory cluster;
 *   <li>{@code yt:/// HTTP emulator}: the {@code yt://} file system through adapter-ytsaurus to the
 *       emulator;
 *   <li>{@code file://}: Spark's default manager on the local disk.
 * </ul>
 *
 * Beside them, {@code bare floor}: {@link BareSource} (one row per batch) with the no-I/O manager,
 * the least a micro-batch costs in Spark with any source.
 */
final class BatchOverheadBench {

  static final String FLOOR = "floor (no-I/O checkpoint)";
  static final String YT_MEMORY = "yt:/// in-memory";
  static final String YT_HTTP = "yt:/// HTTP emulator";
  static final String FILE = "file://";
  static final String BARE_FLOOR = "bare source, no-I/O checkpoint";
  static final List<String> VARIANTS = List.of(FLOOR, YT_MEMORY, YT_HTTP, FILE, BARE_FLOOR);

  private static final String QUEUE = "//bench/tiny";
  private static final String BARE_ROWS = "tiny";
  private static final long QUERY_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(30);

  private final BenchContext ctx;

  BatchOverheadBench(BenchContext ctx) {
    this.ctx = ctx;
  }

  private int batchesPerQuery() {
    return SparkBenchOptions.SKIPPED_BATCHES + ctx.options.batches() + 1;
  }

  void setUp() {
    // Every query reads from the start with its own consumer; a margin keeps batches coming while
    // the harness notices the last one it needs.
    int rows = batchesPerQuery() * 3 + 50;
    BenchQueues.queue(ctx.cluster, QUEUE, 1, rows);
    BareRows.build(BARE_ROWS, 1, rows);
  }

  void tearDown() {
    // The rows stay: a task of the last (stopped) query may still be reading them, and they are
    // few.
  }

  Map<String, Double> round() throws TimeoutException, StreamingQueryException {
    Map<String, Double> result = new LinkedHashMap<>();
    result.put(FLOOR, run(yt(), ctx.fileCheckpoint("floor"), true, ctx.inMemoryAddress));
    result.put(
        YT_MEMORY, run(yt(), "yt:///bench/" + ctx.unique("ckpt"), false, ctx.inMemoryAddress));
    result.put(YT_HTTP, run(yt(), "yt:///bench/" + ctx.unique("ckpt"), false, ctx.emulator.url()));
    result.put(FILE, run(yt(), ctx.fileCheckpoint("file"), false, ctx.inMemoryAddress));
    result.put(BARE_FLOOR, run(bare(), ctx.fileCheckpoint("bare"), true, ctx.inMemoryAddress));
    return result;
  }

  private Dataset<Row> yt() {
    String consumer = BenchQueues.consumer(ctx.cluster, QUEUE, "//bench/" + ctx.unique("tiny-c"));
    return ctx.spark
        .readStream()
        .format("yt")
        .option("proxy", ctx.inMemoryAddress)
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", "1")
        .load(QUEUE);
  }

  private Dataset<Row> bare() {
    return ctx.spark
        .readStream()
        .format(BareSource.class.getName())
        .option("name", BARE_ROWS)
        .option("rows_per_batch", "1")
        .load();
  }

  private double run(Dataset<Row> source, String checkpoint, boolean noIo, String checkpointProxy)
      throws TimeoutException, StreamingQueryException {
    if (noIo) {
      ctx.spark
          .conf()
          .set(NoIoCheckpointFileManager.SETTING, NoIoCheckpointFileManager.class.getName());
    }
    ctx.spark.conf().set("spark.hadoop.yt.proxy", checkpointProxy);
    StreamingQuery query =
        source
            .writeStream()
            .format("noop")
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.ProcessingTime(0))
            .start();
    try {
      long deadline = System.currentTimeMillis() + QUERY_TIMEOUT_MS;
      while (lastBatch(query) < batchesPerQuery()) {
        if (!query.isActive()) {
          query.awaitTermination();
          throw new IllegalStateException("the query stopped after batch " + lastBatch(query));
        }
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(
              "the query ran only " + lastBatch(query) + " batches in " + QUERY_TIMEOUT_MS + " ms");
        }
        query.awaitTermination(10);
      }
    } finally {
      query.stop();
      ctx.spark.conf().unset(NoIoCheckpointFileManager.SETTING);
      ctx.spark.conf().set("spark.hadoop.yt.proxy", ctx.inMemoryAddress);
      NoIoCheckpointFileManager.clear();
    }
    return QueryFigures.batchesPerSecond(
        query, SparkBenchOptions.SKIPPED_BATCHES, ctx.options.batches());
  }

  private static long lastBatch(StreamingQuery query) {
    StreamingQueryProgress p = query.lastProgress();
    return p == null ? -1 : p.batchId();
  }
}
