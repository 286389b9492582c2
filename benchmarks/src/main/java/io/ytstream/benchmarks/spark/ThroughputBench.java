package io.ytstream.benchmarks.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The read-path benchmark: the same query ({@code select id, upper(payload)} into the {@code noop}
 * sink, one AvailableNow batch of every row) over five sources, one after the other in each round:
 *
 * <ul>
 *   <li>{@code bare}: {@link BareSource} over pre-built rows, the limit;
 *   <li>{@code bare, rows built}: the same source building each row from stored values (a long and
 *       UTF-8 bytes), as every source that does not hold Spark's rows must: the control;
 *   <li>{@code yt in-memory}: our source, {@code proxy=inmemory:<name>};
 *   <li>{@code yt HTTP}: our source through adapter-ytsaurus to the emulator over the same rows;
 *   <li>{@code MemoryStream}: Spark's test source with one partition per queue partition;
 *   <li>{@code rate-micro-batch}: Spark's generator, {@code id = value}, {@code payload = 'p' ||
 *       value}.
 * </ul>
 *
 * After the HTTP variant each round runs {@link WireControl}: the wire alone, the server side
 * (answers fetched, nothing decoded) and the client side (the recorded answers decoded).
 *
 * <p>Every query keeps its checkpoint in {@link NoIoCheckpointFileManager}, so checkpoint writes
 * cost the same (nothing) for every source. Rows per second are input rows over the batch's {@code
 * triggerExecution} time.
 */
final class ThroughputBench {

  static final String BARE = "bare DSv2 (limit)";
  static final String BARE_BUILT = "bare, rows built";
  static final String YT_MEMORY = "yt in-memory";
  static final String YT_HTTP = "yt HTTP emulator";
  static final String MEMORY_STREAM = "MemoryStream";
  static final String RATE = "rate-micro-batch";
  static final List<String> VARIANTS =
      List.of(BARE, BARE_BUILT, YT_MEMORY, YT_HTTP, MEMORY_STREAM, RATE);

  private static final String QUEUE = "//bench/throughput";
  private static final String BARE_ROWS = "throughput";

  private final BenchContext ctx;
  private final List<Tuple2<Long, String>> memoryRows = new ArrayList<>();

  ThroughputBench(BenchContext ctx) {
    this.ctx = ctx;
  }

  void setUp() {
    int partitions = ctx.options.partitions();
    long perPartition = ctx.options.rowsPerPartition();
    BenchQueues.queue(ctx.cluster, QUEUE, partitions, perPartition);
    BareRows.build(BARE_ROWS, partitions, (int) perPartition);
    for (long id = 0; id < perPartition * partitions; id++) {
      memoryRows.add(new Tuple2<>(id, "p" + id));
    }
  }

  /**
   * One round: rows per second of each variant. The pair the in-memory target compares and its
   * control run twice, in the order bare, built, ours, ours, built, bare, each figure the two runs'
   * rows over their summed time: a load that rises or falls through the round touches all alike
   * (one run each swung the ratio from 0.6 to 0.9 between quiet rounds).
   */
  Map<String, Double> round() throws Exception {
    Map<String, Double> result = new LinkedHashMap<>();
    double bare = run(bare(false));
    double built = run(bare(true));
    double memory = run(yt(ctx.inMemoryAddress));
    memory = together(memory, run(yt(ctx.inMemoryAddress)));
    built = together(built, run(bare(true)));
    result.put(BARE, together(bare, run(bare(false))));
    result.put(BARE_BUILT, built);
    result.put(YT_MEMORY, memory);
    result.put(YT_HTTP, run(yt(ctx.emulator.url())));
    double[] wire = new WireControl(ctx, QUEUE).round();
    result.put(WireControl.SERVER, wire[0]);
    result.put(WireControl.CLIENT, wire[1]);
    result.put(MEMORY_STREAM, run(memoryStream()));
    result.put(RATE, run(rate()));
    return result;
  }

  /** Two runs of the same rows as one: rows over the summed time. */
  static double together(double rowsPerSecondA, double rowsPerSecondB) {
    return 2 / (1 / rowsPerSecondA + 1 / rowsPerSecondB);
  }

  void tearDown() {
    BareRows.drop(BARE_ROWS);
    memoryRows.clear();
    BenchQueues.trimAll(ctx.cluster, QUEUE);
  }

  private Dataset<Row> bare(boolean buildRows) {
    return ctx.spark
        .readStream()
        .format(BareSource.class.getName())
        .option("name", BARE_ROWS)
        .option("build_rows", Boolean.toString(buildRows))
        .load();
  }

  private Dataset<Row> yt(String proxy) {
    String consumer = BenchQueues.consumer(ctx.cluster, QUEUE, "//bench/" + ctx.unique("c"));
    return ctx.spark
        .readStream()
        .format("yt")
        .option("proxy", proxy)
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", Long.toString(ctx.options.rowsPerPartition()))
        .load(QUEUE);
  }

  private Dataset<Row> memoryStream() {
    MemoryStream<Tuple2<Long, String>> stream =
        MemoryStream.apply(
            ctx.spark,
            ctx.options.partitions(),
            Encoders.tuple(Encoders.LONG(), Encoders.STRING()));
    stream.addData(CollectionConverters.asScala(memoryRows).toSeq());
    return stream.toDF().toDF("id", "payload");
  }

  private Dataset<Row> rate() {
    return ctx.spark
        .readStream()
        .format("rate-micro-batch")
        .option(
            "rowsPerBatch",
            Long.toString(ctx.options.rowsPerPartition() * ctx.options.partitions()))
        .option("numPartitions", Integer.toString(ctx.options.partitions()))
        .load()
        .selectExpr("value AS id", "concat('p', CAST(value AS STRING)) AS payload");
  }

  private double run(Dataset<Row> source) throws TimeoutException, StreamingQueryException {
    ctx.spark
        .conf()
        .set(NoIoCheckpointFileManager.SETTING, NoIoCheckpointFileManager.class.getName());
    // No variant pays for the garbage of the one before: a young collection of this heap (every
    // variant's rows are live) can pause a 200-ms batch for 100-500 ms.
    System.gc();
    try {
      StreamingQuery query =
          source
              .selectExpr("id", "upper(payload) AS payload")
              .writeStream()
              .format("noop")
              .option("checkpointLocation", ctx.fileCheckpoint("throughput"))
              .trigger(Trigger.AvailableNow())
              .start();
      query.awaitTermination();
      long expected = ctx.options.rowsPerPartition() * ctx.options.partitions();
      long rows = QueryFigures.rows(query);
      if (rows != expected) {
        throw new IllegalStateException(
            "a throughput query read " + rows + " rows, expected " + expected);
      }
      return QueryFigures.rowsPerSecond(query);
    } finally {
      ctx.spark.conf().unset(NoIoCheckpointFileManager.SETTING);
      NoIoCheckpointFileManager.clear();
    }
  }
}
