package io.ytstream.benchmarks.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;

import io.ytstream.benchmarks.latency.ChildProcessStore;
import io.ytstream.core.model.YPath;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The end-to-end benchmark: what a user chooses between to move a stream from one log to another.
 * The same {@link PeerRows} backlog, the same Spark session and batch size, {@code
 * Trigger.AvailableNow}, {@code file://} checkpoints:
 *
 * <ul>
 *   <li>Spark's {@code kafka} source to its {@code kafka} sink on one broker, the JSON value parsed
 *       by {@code from_json} and written again by {@code to_json}: at least once, the best Spark's
 *       Kafka sink offers;
 *   <li>our {@code yt} source to an output queue through the sink's {@code producer_path}: exactly
 *       once;
 *   <li>our {@code yt} source to a table sorted by {@code id} with {@code
 *       spark.yt.streaming.transactional}: exactly once.
 * </ul>
 *
 * The broker ({@link KafkaBroker}) and the emulator ({@link ChildProcessStore}) run in JVMs of
 * their own, so this JVM's CPU time is the connectors' cost. Every run's output is checked after
 * the query (outside its figures): ours must hold every id once and nothing else, Kafka's topic at
 * least every row. One unmeasured round, then rounds in which each pipeline in turn goes first.
 * Writes {@code e2e-table.md} and {@code targets.md} to {@code --out}.
 */
public final class EndToEndBench {

  static final String KAFKA = "Spark kafka source -> kafka sink, at least once";
  static final String YT_QUEUE = "ytstream queue -> queue (producer_path), exactly once";
  static final String YT_SORTED = "ytstream queue -> sorted table (transactional), exactly once";
  static final List<String> PIPELINES = List.of(KAFKA, YT_QUEUE, YT_SORTED);
  static final double RATE_TARGET = 1.5;

  /** Tablets of the output queue: a task's share of a batch spread over them stays in the limit. */
  static final int OUTPUT_TABLETS = 8;

  private static final String TOPIC = "e2e";
  private static final String QUEUE = "//e2e/queue";
  private static final String TRANSACTIONAL = "spark.yt.streaming.transactional";
  private static final String MAX_ROWS_PER_TABLET = "spark.yt.write.maxRowsPerTabletPerTransaction";
  private static final int SERVER_ROWS_PER_TABLET = 100_000;

  private final SparkSession spark;
  private final EndToEndOptions options;
  private final PrintStream out;
  private final KafkaBroker broker;
  private final ChildProcessStore emulator;
  private final Path scratch;
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private int runs;

  final Map<String, Samples> rowsPerSecond = new LinkedHashMap<>();
  final Map<String, Samples> cpuMicrosPerRow = new LinkedHashMap<>();
  final Map<String, Samples> serverCpuMicrosPerRow = new LinkedHashMap<>();

  /**
   * Cores kept busy, Spark's and the server's JVM together: (CPU µs per row of both) × rows/s.
   * Below the cores Spark has, the pipeline waits rather than computes.
   */
  final Map<String, Samples> coresBusy = new LinkedHashMap<>();

  final Map<String, Samples> rateRatio = new LinkedHashMap<>();
  final Map<String, Samples> cpuRatio = new LinkedHashMap<>();

  /** Records in Kafka's output topic beyond the rows read, per measured round. */
  final List<Long> kafkaExtra = new ArrayList<>();

  EndToEndBench(
      SparkSession spark,
      EndToEndOptions options,
      PrintStream out,
      KafkaBroker broker,
      ChildProcessStore emulator)
      throws IOException {
    this.spark = spark;
    this.options = options;
    this.out = out;
    this.broker = broker;
    this.emulator = emulator;
    this.scratch = Files.createTempDirectory("ytstream-e2e-bench");
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    EndToEndOptions options;
    try {
      options = EndToEndOptions.parse(args);
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
      out.println("end-to-end benchmark failed: " + e);
      e.printStackTrace(out);
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** Starts both servers, fills them, runs the rounds, writes and returns the table. */
  static String run(SparkSession spark, EndToEndOptions options, PrintStream out) throws Exception {
    String token = UUID.randomUUID().toString();
    String cluster = "e2e-" + token.substring(0, 8);
    long t = System.nanoTime();
    try (KafkaBroker broker = KafkaBroker.start("1g");
        ChildProcessStore emulator = new ChildProcessStore(cluster, token, List.of("-Xmx3g"))) {
      spark.conf().set("spark.hadoop.yt.token", token);
      spark.conf().set("spark.hadoop.yt.proxy", emulator.address());
      try {
        broker.fill(TOPIC, options.partitions(), options.rowsPerPartition());
        emulator.backlog(QUEUE, options.partitions(), options.rowsPerPartition());
        // The emulator's sorted tables have one tablet; a real sorted output sharded so that a
        // batch fits its transaction is stood for by raising the per-tablet limit to the batch.
        emulator.maxRowsPerTabletPerTransaction(transactionRows(options));
        out.printf(
            Locale.ROOT,
            "end-to-end benchmark: %,d rows in Kafka (%s) and in the emulator (%s), %.1f s%n",
            options.backlog(),
            broker.bootstrap(),
            emulator.address(),
            (System.nanoTime() - t) / 1e9);
        EndToEndBench bench = new EndToEndBench(spark, options, out, broker, emulator);
        try {
          bench.runRounds();
        } finally {
          BenchContext.deleteQuietly(bench.scratch);
        }
        String table = bench.table();
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("e2e-table.md"), table, StandardCharsets.UTF_8);
        Files.writeString(
            options.out().resolve("targets.md"), bench.targets(), StandardCharsets.UTF_8);
        return table;
      } finally {
        spark.conf().unset("spark.hadoop.yt.token");
        spark.conf().unset("spark.hadoop.yt.proxy");
      }
    }
  }

  private static int transactionRows(EndToEndOptions options) {
    return (int) Math.max(SERVER_ROWS_PER_TABLET, options.batchRows());
  }

  void runRounds() throws Exception {
    if (options.warmup()) {
      out.println("end-to-end benchmark: warm-up round (not counted): " + brief(round(0)));
    }
    for (int r = 1; r <= options.rounds(); r++) {
      Map<String, double[]> result = round(r);
      double[] kafka = result.get(KAFKA);
      kafkaExtra.add((long) kafka[2]);
      result.forEach(
          (k, v) -> {
            rowsPerSecond.computeIfAbsent(k, x -> new Samples()).add(v[0]);
            cpuMicrosPerRow.computeIfAbsent(k, x -> new Samples()).add(v[1]);
            serverCpuMicrosPerRow.computeIfAbsent(k, x -> new Samples()).add(v[3]);
            coresBusy.computeIfAbsent(k, x -> new Samples()).add((v[1] + v[3]) * v[0] / 1e6);
            if (!k.equals(KAFKA)) {
              rateRatio.computeIfAbsent(k, x -> new Samples()).add(v[0] / kafka[0]);
              cpuRatio.computeIfAbsent(k, x -> new Samples()).add(v[1] / kafka[1]);
            }
          });
      out.printf(
          Locale.ROOT,
          "end-to-end benchmark: round %d of %d: %s%n",
          r,
          options.rounds(),
          brief(result));
    }
  }

  /** The pipelines in the order of round {@code r}: rotated by one per round. */
  static List<String> inRound(int r) {
    List<String> order = new ArrayList<>(PIPELINES);
    Collections.rotate(order, -(Math.max(0, r - 1) % order.size()));
    return order;
  }

  /**
   * One round: {rows/s, CPU µs per row, records beyond the rows read, the server's CPU µs per row}
   * of each pipeline.
   */
  private Map<String, double[]> round(int r) throws Exception {
    Map<String, double[]> result = new LinkedHashMap<>();
    for (String p : inRound(r)) {
      result.put(p, p.equals(KAFKA) ? kafka() : yt(p.equals(YT_SORTED)));
    }
    Map<String, double[]> ordered = new LinkedHashMap<>();
    PIPELINES.forEach(p -> ordered.put(p, result.get(p)));
    return ordered;
  }

  /** Kafka to Kafka; the output topic must hold at least every row read. */
  private double[] kafka() throws Exception {
    String topic = "e2e-out-" + (++runs);
    broker.createTopic(topic, options.partitions());
    try {
      Dataset<Row> rows =
          spark
              .readStream()
              .format("kafka")
              .option("kafka.bootstrap.servers", broker.bootstrap())
              .option("subscribe", TOPIC)
              .option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", Long.toString(options.batchRows()))
              .load()
              .selectExpr("CAST(value AS STRING) AS json")
              .select(from_json(col("json"), PeerRows.SCHEMA).alias("row"))
              .select("row.id", "row.payload")
              .select(to_json(struct(col("id"), col("payload"))).alias("value"));
      double[] figures =
          drain(
              rows.writeStream()
                  .format("kafka")
                  .option("kafka.bootstrap.servers", broker.bootstrap())
                  .option("topic", topic),
              broker::cpuNanos);
      long records = broker.records(topic, options.partitions());
      if (records < options.backlog()) {
        throw new IllegalStateException(
            "Kafka's sink wrote "
                + records
                + " records into "
                + topic
                + ", fewer than the "
                + options.backlog()
                + " rows read");
      }
      return new double[] {figures[0], figures[1], records - options.backlog(), figures[2]};
    } finally {
      broker.deleteTopic(topic);
    }
  }

  /**
   * Our source to an output queue through producer sessions, or to a table sorted by id in
   * transactional mode; the output must hold every id once and nothing else.
   */
  private double[] yt(boolean sorted) throws Exception {
    int n = ++runs;
    String dir = "//e2e/run-" + n;
    String output = dir + "/out";
    String producer = dir + "/producer";
    String consumer = "//e2e/consumers/consumer-" + n;
    emulator.consumer(QUEUE, consumer);
    if (sorted) {
      emulator.sortedById(output);
    } else {
      emulator.outputQueue(output, OUTPUT_TABLETS, producer);
    }
    Dataset<Row> rows =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .option("max_rows_per_partition", Long.toString(options.batchRowsPerPartition()))
            .load(QUEUE)
            .select("id", "payload");
    DataStreamWriter<Row> writer = rows.writeStream().format("yt").option("path", output);
    if (sorted) {
      spark.conf().set(TRANSACTIONAL, "true");
      spark.conf().set(MAX_ROWS_PER_TABLET, Integer.toString(transactionRows(options)));
    } else {
      writer = writer.option("producer_path", producer);
    }
    try {
      double[] figures = drain(writer, emulator::cpuNanos);
      OutputCheck check = emulator.check(output, options.backlog());
      if (!check.exactlyOnce(options.backlog())) {
        throw new IllegalStateException(
            (sorted ? YT_SORTED : YT_QUEUE)
                + " left "
                + check
                + " at "
                + output
                + ", expected every id of [0, "
                + options.backlog()
                + ") once");
      }
      return new double[] {figures[0], figures[1], 0, figures[2]};
    } finally {
      spark.conf().unset(TRANSACTIONAL);
      spark.conf().unset(MAX_ROWS_PER_TABLET);
      emulator.forget(YPath.of(dir));
    }
  }

  /**
   * Runs the query to its end; returns rows/s of the batches, this JVM's CPU µs per row and the
   * server JVM's ({@code serverCpu}) over the same time.
   */
  private double[] drain(DataStreamWriter<Row> writer, LongSupplier serverCpu) throws Exception {
    System.gc(); // no pipeline pays for another's garbage
    String checkpoint = scratch.resolve("checkpoint-" + runs).toUri().toString();
    long serverBefore = serverCpu.getAsLong();
    long cpuBefore = os.getProcessCpuTime();
    StreamingQuery query =
        writer.option("checkpointLocation", checkpoint).trigger(Trigger.AvailableNow()).start();
    query.awaitTermination();
    long cpuNanos = os.getProcessCpuTime() - cpuBefore;
    long serverNanos = serverCpu.getAsLong() - serverBefore;
    long read = QueryFigures.rows(query);
    if (read != options.backlog()) {
      throw new IllegalStateException(
          "an end-to-end query read " + read + " rows, expected " + options.backlog());
    }
    return new double[] {
      QueryFigures.rowsPerSecond(query),
      cpuNanos / 1e3 / read,
      serverBefore < 0 ? Double.NaN : serverNanos / 1e3 / read
    };
  }

  private static String brief(Map<String, double[]> result) {
    StringBuilder b = new StringBuilder();
    result.forEach(
        (k, v) ->
            b.append(b.length() == 0 ? "" : "; ")
                .append(
                    String.format(
                        Locale.ROOT,
                        "%s %,.0f rows/s, %.2f µs CPU/row (server %.2f)",
                        k,
                        v[0],
                        v[1],
                        v[3])));
    return b.toString();
  }

  /** The results file's target row. */
  String targets() {
    return String.format(
        Locale.ROOT,
        "| ytstream exactly-once queue→queue rows/s beside Kafka source→Kafka sink (at least once)"
            + " | ≥ 1.5 × Kafka's | %s× (%,.0f vs %,.0f rows/s) | %s |%n",
        rateRatio.get(YT_QUEUE).format("%.2f"),
        rowsPerSecond.get(YT_QUEUE).median(),
        rowsPerSecond.get(KAFKA).median(),
        PeerBench.verdict(rateRatio.get(YT_QUEUE).median() >= RATE_TARGET));
  }

  String table() {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "### End to end: queue to queue beside Kafka to Kafka%n%n"
                + "%,d rows (id, 40-byte string) in %d partitions, AvailableNow, %,d rows per batch,"
                + " file:// checkpoints, one Spark session (local[2]); the broker and the emulator"
                + " in JVMs of their own; %d round(s) after %s, each pipeline first in turn; median"
                + " [min–max]. Kafka's value is parsed by from_json and written by to_json; the"
                + " output queue has %d tablets; the emulator's sorted table has one tablet, so its"
                + " per-tablet transaction limit (and the sink's"
                + " spark.yt.write.maxRowsPerTabletPerTransaction) is raised to the batch, as a"
                + " sorted output sharded to take a batch in one transaction would allow. CPU: the"
                + " Spark JVM's process CPU time from query start to end; server CPU: the broker's"
                + " or the emulator's JVM over the same time (on these shared cores the servers'"
                + " work competes with Spark's; a real cluster runs on machines of its own); cores"
                + " busy: both JVMs' CPU per row times rows/s, below 2 when a pipeline waits rather"
                + " than computes.%n%n",
            options.backlog(),
            options.partitions(),
            options.batchRowsPerPartition() * options.partitions(),
            options.rounds(),
            options.warmup() ? "a warm-up round" : "no warm-up",
            OUTPUT_TABLETS));
    t.append(
        "| pipeline | rows/s | CPU µs/row | rows/s ÷ Kafka's | CPU ÷ Kafka's | server CPU µs/row"
            + " | cores busy | output |\n");
    t.append("|---|---|---|---|---|---|---|---|\n");
    for (String p : PIPELINES) {
      boolean kafka = p.equals(KAFKA);
      t.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
              p,
              rowsPerSecond.get(p).format("%,.0f"),
              cpuMicrosPerRow.get(p).format("%.2f"),
              kafka ? "1" : rateRatio.get(p).format("%.2f"),
              kafka ? "1" : cpuRatio.get(p).format("%.2f"),
              serverCpuMicrosPerRow.get(p).format("%.2f"),
              coresBusy.get(p).format("%.2f"),
              kafka ? kafkaOutput() : "every id once, each round (checked)"));
    }
    t.append('\n');
    return t.toString();
  }

  private String kafkaOutput() {
    long extra = kafkaExtra.stream().mapToLong(Long::longValue).sum();
    return extra == 0
        ? "every row, no extra record, each round (counted)"
        : "every row, plus duplicates per round: " + kafkaExtra;
  }
}
