package io.ytstream.benchmarks.spark;

import io.ytstream.benchmarks.latency.ChildProcessStore;
import io.ytstream.core.model.YPath;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.lang.management.ManagementFactory;
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
 * The delivery-modes benchmark: what each delivery mode costs Spark. The server runs in a JVM of
 * its own (the emulator, {@link ChildProcessStore}), so this JVM's CPU time is the connector's work
 * alone; source and sink {@code yt} over HTTP, {@code select id, upper(payload)}, AvailableNow with
 * the default {@code max_rows_per_partition} (100,000, so several batches), checkpoints {@code
 * yt:///} on the same server:
 *
 * <ul>
 *   <li>at-least-once and transactional append to an ordered table of 8 tablets (a transactional
 *       batch of 4 × 100,000 rows fits YTsaurus' 100,000 rows per tablet and transaction);
 *   <li>idempotent adds the service columns and upserts into a table sorted by them;
 *   <li>producer pushes into an ordered queue of 8 tablets through a queue producer with the sink's
 *       {@code producer_path}: one session per task, each task's share of a batch in one push;
 *   <li>producer-foreach does the same with {@code YtProducerForeachWriter}: the service columns,
 *       one session per source partition numbered by source row, pushes of up to 50,000 rows (the
 *       sink's default {@code dynBatchSize});
 *   <li>foreach-nothing, the control, hands the same rows to a {@link DiscardingForeachWriter}:
 *       what the foreach API costs Spark before any writer's work.
 * </ul>
 *
 * Each query gets a folder of its own on the server (removed afterwards, so outputs do not pile up
 * in its memory). A round's result holds each mode's rows/s and, under the mode's name with {@link
 * #CPU}, this JVM's CPU µs per row.
 */
final class ModeBench implements AutoCloseable {

  static final String AT_LEAST_ONCE = "at-least-once";
  static final String TRANSACTIONAL = "transactional";
  static final String IDEMPOTENT = "idempotent";
  static final String PRODUCER = "producer";
  static final String PRODUCER_FOREACH = "producer-foreach";

  /** The control: the same rows into a ForeachWriter that writes nothing (Spark's part). */
  static final String FOREACH_NOTHING = "foreach-nothing";

  static final List<String> VARIANTS =
      List.of(
          AT_LEAST_ONCE, TRANSACTIONAL, IDEMPOTENT, PRODUCER, PRODUCER_FOREACH, FOREACH_NOTHING);

  /** The suffix of a round's CPU figures: {@code "<mode> cpu"}, µs per row. */
  static final String CPU = " cpu";

  /** The suffix of a round's server CPU figures: {@code "<mode> server cpu"}, µs per row. */
  static final String SERVER_CPU = " server cpu";

  private static final int PUSH_ROWS = 50_000;
  private static final String TRANSACTIONAL_SETTING = "spark.yt.streaming.transactional";

  private final BenchContext ctx;
  private final ChildProcessStore server;
  private int rounds;
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  ModeBench(BenchContext ctx) {
    this.ctx = ctx;
    this.server =
        new ChildProcessStore(
            "modes-" + ctx.cluster.name(), ctx.token, List.of("-Xmx" + SERVER_HEAP));
  }

  /** The server JVM's heap: the source rows, one mode's output and its checkpoints at a time. */
  private static final String SERVER_HEAP = "3g";

  Map<String, Double> round() throws TimeoutException, StreamingQueryException {
    Map<String, Double> result = new LinkedHashMap<>();
    Map<String, double[]> byMode = new LinkedHashMap<>();
    // Each round starts one mode later, so no mode always runs first on a JVM still warming up.
    int first = rounds++ % VARIANTS.size();
    for (int i = 0; i < VARIANTS.size(); i++) {
      String mode = VARIANTS.get((first + i) % VARIANTS.size());
      byMode.put(mode, run(mode));
    }
    for (String mode : VARIANTS) {
      result.put(mode, byMode.get(mode)[0]);
    }
    for (String mode : VARIANTS) {
      result.put(mode + CPU, byMode.get(mode)[1]);
    }
    for (String mode : VARIANTS) {
      result.put(mode + SERVER_CPU, byMode.get(mode)[2]);
    }
    return result;
  }

  /**
   * {rows/s over the batches, this JVM's CPU µs per row from the query's start to its end, the
   * server JVM's over the same time}: on shared cores the server's work slows Spark's.
   */
  private double[] run(String mode) throws TimeoutException, StreamingQueryException {
    String dir = "//bench/" + ctx.unique("modes");
    String queue = dir + "/queue";
    String output = dir + "/out";
    String producerPath = dir + "/producer";
    int partitions = ctx.options.partitions();
    long perPartition = ctx.options.modeRows() / partitions;
    server.backlog(queue, partitions, perPartition);
    String consumer = dir + "/consumer";
    server.consumer(queue, consumer);
    boolean idempotent = mode.equals(IDEMPOTENT);
    boolean nothing = mode.equals(FOREACH_NOTHING);
    boolean foreach = nothing || mode.equals(PRODUCER_FOREACH);
    boolean producer = mode.equals(PRODUCER_FOREACH) || mode.equals(PRODUCER);
    String kind = idempotent ? ModeTables.SORTED : ModeTables.ORDERED;
    server.modeTable(output, kind);
    if (producer) {
      server.modeTable(producerPath, ModeTables.PRODUCER);
    }
    ctx.spark.conf().set("spark.hadoop.yt.proxy", server.address());
    ctx.spark.conf().set(TRANSACTIONAL_SETTING, Boolean.toString(mode.equals(TRANSACTIONAL)));
    try {
      Dataset<Row> rows =
          ctx.spark
              .readStream()
              .format("yt")
              .option("consumer_path", consumer)
              .option("include_service_columns", Boolean.toString(idempotent || foreach))
              .load(queue);
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
          nothing
              ? writer.foreach(new DiscardingForeachWriter())
              : foreach
                  ? writer.foreach(
                      YtProducerForeachWriter.builder()
                          .path(output)
                          .producerPath(producerPath)
                          .maxBufferedRows(PUSH_ROWS)
                          .build())
                  : writer.format("yt").option("path", output);
      if (mode.equals(PRODUCER)) {
        writer = writer.option("producer_path", producerPath);
      }
      System.gc(); // no mode pays for the garbage of the one before
      long serverBefore = server.cpuNanos();
      long cpuBefore = os.getProcessCpuTime();
      StreamingQuery query =
          writer
              .option("checkpointLocation", "yt:///" + dir.substring(2) + "/checkpoints")
              .trigger(Trigger.AvailableNow())
              .start();
      query.awaitTermination();
      long cpuNanos = os.getProcessCpuTime() - cpuBefore;
      long serverNanos = server.cpuNanos() - serverBefore;
      long written = nothing ? QueryFigures.rows(query) : server.rows(output, kind);
      long expected = perPartition * partitions;
      if (written != expected) {
        throw new IllegalStateException(mode + " wrote " + written + " rows, expected " + expected);
      }
      return new double[] {
        QueryFigures.rowsPerSecond(query), cpuNanos / 1e3 / expected, serverNanos / 1e3 / expected
      };
    } finally {
      ctx.spark.conf().unset(TRANSACTIONAL_SETTING);
      ctx.spark.conf().set("spark.hadoop.yt.proxy", ctx.inMemoryAddress);
      server.forget(YPath.of(dir));
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
