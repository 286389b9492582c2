package io.ytstream.benchmarks.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.from_json;

import io.ytstream.benchmarks.latency.ChildProcessStore;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The peer benchmark: the same backlog drained by the same Spark session with {@code
 * Trigger.AvailableNow} into the {@code noop} sink, (a) from Apache Kafka's broker through Spark's
 * {@code kafka} source, the JSON value parsed by {@code from_json} into typed columns, (b) the same
 * records as raw key and value bytes, the least a Kafka job can pay, and (c) from the emulator
 * through our {@code yt} source over HTTP, typed; and, as the control, (d) Spark's rows already in
 * memory through a bare source that does no I/O ({@link BareSource}), what Spark itself spends per
 * row. Both servers run in JVMs of their own ({@link KafkaBroker}, {@link ChildProcessStore}), so
 * this JVM's CPU time is the connector's cost, what a user pays in executors. Same batch size, the
 * same {@code file://} checkpoint kind; one unmeasured round, then rounds in which the sources take
 * turns at going first. Writes {@code peer-table.md} and {@code targets.md} to {@code --out}.
 *
 * <pre>
 * java -Xmx4g &lt;Spark's add-opens&gt; -cp benchmarks.jar:&lt;spark-classpath.txt&gt; \
 *     io.ytstream.benchmarks.spark.PeerBench --rounds 3
 * </pre>
 */
public final class PeerBench {

  static final String KAFKA = "Spark kafka source, from_json";
  static final String KAFKA_RAW = "Spark kafka source, raw bytes";
  static final String YT = "ytstream yt source, HTTP";
  static final String BARE = "control: bare DSv2 source, rows in memory";
  static final double RATE_TARGET = 2.0;
  static final double CPU_TARGET = 1.0 / 3;
  static final double RAW_CPU_TARGET = 1.0 / 2;

  private static final String TOPIC = "peer";
  private static final String QUEUE = "//peer/queue";
  private static final String BARE_ROWS = "peer";

  private final SparkSession spark;
  private final PeerBenchOptions options;
  private final PrintStream out;
  private final String kafkaBootstrap;
  private final ChildProcessStore emulator;
  private final Path scratch;
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private int queries;

  final Map<String, Samples> rowsPerSecond = new LinkedHashMap<>();
  final Map<String, Samples> cpuMicrosPerRow = new LinkedHashMap<>();
  final Map<String, Samples> jitMicrosPerRow = new LinkedHashMap<>();
  final Samples rateRatio = new Samples();
  final Samples cpuRatio = new Samples();
  final Samples rawRateRatio = new Samples();
  final Samples rawCpuRatio = new Samples();
  final Samples bareCpuRatio = new Samples();
  final Samples rawCpuLessJitRatio = new Samples();

  PeerBench(
      SparkSession spark,
      PeerBenchOptions options,
      PrintStream out,
      String kafkaBootstrap,
      ChildProcessStore emulator)
      throws IOException {
    this.spark = spark;
    this.options = options;
    this.out = out;
    this.kafkaBootstrap = kafkaBootstrap;
    this.emulator = emulator;
    this.scratch = Files.createTempDirectory("ytstream-peer-bench");
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PeerBenchOptions options;
    try {
      options = PeerBenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      System.exit(2);
      return;
    }
    SparkSession spark = BenchSession.getOrCreate();
    int code = 0;
    try {
      out.print(run(spark, options, out));
    } catch (Exception e) {
      out.println("peer benchmark failed: " + e);
      e.printStackTrace(out);
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** Starts both servers, fills them, runs the rounds, writes and returns the table. */
  static String run(SparkSession spark, PeerBenchOptions options, PrintStream out)
      throws Exception {
    String token = UUID.randomUUID().toString();
    String cluster = "peer-" + token.substring(0, 8);
    long t = System.nanoTime();
    try (KafkaBroker broker = KafkaBroker.start("1g");
        ChildProcessStore emulator = new ChildProcessStore(cluster, token, List.of("-Xmx3g"))) {
      spark.conf().set("spark.hadoop.yt.token", token);
      try {
        broker.fill(TOPIC, options.partitions(), options.rowsPerPartition());
        emulator.backlog(QUEUE, options.partitions(), options.rowsPerPartition());
        out.printf(
            Locale.ROOT,
            "peer benchmark: %,d rows in Kafka (%s) and in the emulator (%s), %.1f s%n",
            options.backlog(),
            broker.bootstrap(),
            emulator.address(),
            (System.nanoTime() - t) / 1e9);
        PeerBench bench = new PeerBench(spark, options, out, broker.bootstrap(), emulator);
        BareRows.build(
            BARE_ROWS, options.partitions(), Math.toIntExact(options.rowsPerPartition()));
        try {
          bench.runRounds();
        } finally {
          BareRows.drop(BARE_ROWS);
          BenchContext.deleteQuietly(bench.scratch);
        }
        String table = bench.table();
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("peer-table.md"), table, StandardCharsets.UTF_8);
        Files.writeString(
            options.out().resolve("targets.md"), bench.targets(), StandardCharsets.UTF_8);
        return table;
      } finally {
        spark.conf().unset("spark.hadoop.yt.token");
      }
    }
  }

  void runRounds() throws Exception {
    if (options.warmup()) {
      out.println("peer benchmark: warm-up round (not counted): " + brief(round(0)));
    }
    for (int r = 1; r <= options.rounds(); r++) {
      Map<String, double[]> result = round(r);
      result.forEach(
          (k, v) -> {
            rowsPerSecond.computeIfAbsent(k, x -> new Samples()).add(v[0]);
            cpuMicrosPerRow.computeIfAbsent(k, x -> new Samples()).add(v[1]);
            jitMicrosPerRow.computeIfAbsent(k, x -> new Samples()).add(v[2]);
          });
      rateRatio.add(result.get(YT)[0] / result.get(KAFKA)[0]);
      cpuRatio.add(result.get(YT)[1] / result.get(KAFKA)[1]);
      rawRateRatio.add(result.get(YT)[0] / result.get(KAFKA_RAW)[0]);
      rawCpuRatio.add(result.get(YT)[1] / result.get(KAFKA_RAW)[1]);
      bareCpuRatio.add(result.get(BARE)[1] / result.get(KAFKA_RAW)[1]);
      rawCpuLessJitRatio.add(
          (result.get(YT)[1] - result.get(YT)[2])
              / (result.get(KAFKA_RAW)[1] - result.get(KAFKA_RAW)[2]));
      out.printf(
          Locale.ROOT, "peer benchmark: round %d of %d: %s%n", r, options.rounds(), brief(result));
    }
  }

  /**
   * One round: {rows/s, CPU µs per row} of each source. The order turns by one each round, so no
   * source always runs first (on the coldest JVM) or last.
   */
  private Map<String, double[]> round(int r) throws TimeoutException, StreamingQueryException {
    List<String> order = List.of(KAFKA, KAFKA_RAW, YT, BARE);
    Map<String, double[]> result = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) {
      String source = order.get((i + r) % order.size());
      result.put(source, drain(source(source)));
    }
    Map<String, double[]> ordered = new LinkedHashMap<>();
    for (String source : order) {
      ordered.put(source, result.get(source));
    }
    return ordered;
  }

  private Dataset<Row> source(String name) {
    return switch (name) {
      case KAFKA -> kafka();
      case KAFKA_RAW -> kafkaRaw();
      case YT -> yt();
      case BARE -> bare();
      default -> throw new IllegalArgumentException("no source named " + name);
    };
  }

  /** Kafka's records as the source gives them, key and value bytes, with no parsing at all. */
  private Dataset<Row> kafkaRaw() {
    return kafkaRecords().select("key", "value");
  }

  private Dataset<Row> kafkaRecords() {
    return spark
        .readStream()
        .format("kafka")
        .option("kafka.bootstrap.servers", kafkaBootstrap)
        .option("subscribe", TOPIC)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", Long.toString(options.batchRows()))
        .load();
  }

  private Dataset<Row> kafka() {
    return kafkaRecords()
        .selectExpr("CAST(value AS STRING) AS json")
        .select(from_json(col("json"), PeerRows.SCHEMA).alias("row"))
        .select("row.id", "row.payload");
  }

  /**
   * Rows already in memory as Spark's rows, handed over with no I/O and no conversion: what Spark
   * itself spends per row of a micro-batch, the least any source can cost.
   */
  private Dataset<Row> bare() {
    return spark
        .readStream()
        .format(BareSource.class.getName())
        .option("name", BARE_ROWS)
        .option("rows_per_batch", Long.toString(options.batchRowsPerPartition()))
        .load();
  }

  private Dataset<Row> yt() {
    String consumer = "//peer/consumer-" + (++queries);
    emulator.consumer(QUEUE, consumer);
    return spark
        .readStream()
        .format("yt")
        .option("proxy", emulator.address())
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", Long.toString(options.batchRowsPerPartition()))
        .load(QUEUE)
        .select("id", "payload");
  }

  /**
   * Drains the backlog once; returns rows/s of the batches, this JVM's CPU µs per row and, of that,
   * its JIT compiler threads' ({@link ThreadsCpu}; 0 where unknown).
   */
  private double[] drain(Dataset<Row> rows) throws TimeoutException, StreamingQueryException {
    System.gc(); // neither source pays for the other's garbage
    String checkpoint = scratch.resolve("checkpoint-" + (++queries)).toUri().toString();
    long cpuBefore = os.getProcessCpuTime();
    long jitBefore = ThreadsCpu.COMPILER.nanos();
    StreamingQuery query =
        rows.writeStream()
            .format("noop")
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .start();
    query.awaitTermination();
    long cpuNanos = os.getProcessCpuTime() - cpuBefore;
    long jitNanos = ThreadsCpu.between(jitBefore, ThreadsCpu.COMPILER.nanos());
    long read = QueryFigures.rows(query);
    if (read != options.backlog()) {
      throw new IllegalStateException(
          "a peer query read " + read + " rows, expected " + options.backlog());
    }
    return new double[] {
      QueryFigures.rowsPerSecond(query), cpuNanos / 1e3 / read, jitNanos / 1e3 / read
    };
  }

  private static String brief(Map<String, double[]> result) {
    StringBuilder b = new StringBuilder();
    result.forEach(
        (k, v) ->
            b.append(b.length() == 0 ? "" : "; ")
                .append(
                    String.format(Locale.ROOT, "%s %,.0f rows/s, %.2f µs CPU/row", k, v[0], v[1])));
    return b.toString();
  }

  static String verdict(boolean met) {
    return met ? "met" : "**not met**";
  }

  /** The target rows of the results file. */
  String targets() {
    return String.format(
            Locale.ROOT,
            "| rows/s beside Spark's Kafka source (AvailableNow, typed) | ≥ 2 × Kafka's | %s× (%,.0f"
                + " vs %,.0f rows/s) | %s |%n",
            rateRatio.format("%.2f"),
            rowsPerSecond.get(YT).median(),
            rowsPerSecond.get(KAFKA).median(),
            verdict(rateRatio.median() >= RATE_TARGET))
        + String.format(
            Locale.ROOT,
            "| Spark JVM CPU per row beside Kafka's | ≤ 1/3 of Kafka's | %s× (%.2f vs %.2f µs/row) |"
                + " %s |%n",
            cpuRatio.format("%.2f"),
            cpuMicrosPerRow.get(YT).median(),
            cpuMicrosPerRow.get(KAFKA).median(),
            verdict(cpuRatio.median() <= CPU_TARGET))
        + String.format(
            Locale.ROOT,
            "| Spark JVM CPU per row beside Kafka's raw records (no parsing) | ≤ 1/2 of Kafka's |"
                + " %s× (%.2f vs %.2f µs/row); controls: a bare source with no I/O %s×; less the"
                + " JIT compiler threads' CPU (compiling, not moving rows) %s× | %s |%n",
            rawCpuRatio.format("%.2f"),
            cpuMicrosPerRow.get(YT).median(),
            cpuMicrosPerRow.get(KAFKA_RAW).median(),
            bareCpuRatio.format("%.2f"),
            rawCpuLessJitRatio.format("%.2f"),
            rawCpuVerdict(rawCpuRatio, rawCpuLessJitRatio.median(), RAW_CPU_TARGET));
  }

  /**
   * The verdict on CPU per row beside Kafka's raw records, which must stay at or below {@code
   * target}. A miss whose rounds straddle the target while the ratio less the JIT compiler threads'
   * CPU meets it says so: the compiler's work (each query's code compiled anew, mostly Spark's,
   * what every source pays) moves the ratio by more than the gap, which then cannot be told from
   * noise.
   */
  static String rawCpuVerdict(Samples ratio, double lessJit, double target) {
    if (ratio.median() <= target) {
      return verdict(true);
    }
    if (ratio.min() <= target && lessJit <= target) {
      return String.format(
          Locale.ROOT,
          "**not met**: the median %.2f× is over the %.2f×, the rounds (%.2f–%.2f×) straddle it;"
              + " less the JIT compiler threads' CPU, %.2f×, under it",
          ratio.median(),
          target,
          ratio.min(),
          ratio.max(),
          lessJit);
    }
    return verdict(false);
  }

  String table() {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "### Peer: Spark's Kafka source beside ours%n%n"
                + "%,d rows (id, 40-byte string) in %d partitions, AvailableNow, %,d rows per batch,"
                + " noop sink, file:// checkpoints; %d rounds after %s; median [min–max]. CPU: the"
                + " Spark JVM's process CPU time (the servers run in JVMs of their own); of which"
                + " JIT: its compiler threads' CPU over the same time. Both sources read their"
                + " server's answers on the task's thread.%n%n",
            options.backlog(),
            options.partitions(),
            options.batchRowsPerPartition() * options.partitions(),
            options.rounds(),
            options.warmup() ? "a warm-up round" : "no warm-up"));
    t.append("| source | rows/s | CPU µs/row | of which JIT µs/row |\n" + "|---|---|---|---|\n");
    for (String v : List.of(KAFKA, KAFKA_RAW, YT, BARE)) {
      t.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s |%n",
              v,
              rowsPerSecond.get(v).format("%,.0f"),
              cpuMicrosPerRow.get(v).format("%.2f"),
              jitMicrosPerRow.get(v).format("%.2f")));
    }
    t.append(
        String.format(
            Locale.ROOT,
            "| ours ÷ Kafka's (from_json) | %s | %s | |%n"
                + "| ours ÷ Kafka's (raw bytes) | %s | %s | |%n"
                + "| control ÷ Kafka's (raw bytes) | | %s | |%n"
                + "| ours ÷ Kafka's (raw bytes), CPU less JIT | | %s | |%n%n",
            rateRatio.format("%.2f"),
            cpuRatio.format("%.2f"),
            rawRateRatio.format("%.2f"),
            rawCpuRatio.format("%.2f"),
            bareCpuRatio.format("%.2f"),
            rawCpuLessJitRatio.format("%.2f")));
    return t.toString();
  }
}
