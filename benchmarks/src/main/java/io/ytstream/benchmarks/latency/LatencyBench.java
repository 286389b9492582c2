package io.ytstream.benchmarks.latency;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;

import io.ytstream.benchmarks.spark.KafkaBroker;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import io.ytstream.spark.writers.YtUpsertForeachWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The real-time latency benchmark: a producer appends rows {@code (id, sent_us)} to a queue (or,
 * for Spark's Kafka source, to a topic of a Kafka broker in a JVM of its own) at a steady rate, and
 * each variant ({@link Variant}) reads them and writes them with a ytstream ForeachWriter; the sink
 * time is taken when the writer's append/upsert returned ({@link TimedConnector}). One group = one
 * backend, rate and trigger duration; its variants run one after the other in the same JVM and
 * session, and the group's table gives p50/p90/p99/max and our ratios to Kafka's. Writes {@code
 * latency-table.md} and {@code targets.md} to {@code --out}. See {@link LatencyOptions#USAGE} and
 * benchmarks/README.md.
 */
public final class LatencyBench {

  static final String MIN_BATCH = "spark.sql.streaming.realTimeMode.minBatchDuration";
  static final String TABLET_INDEX = "__spyt_streaming_src_tablet_index";
  static final String ROW_INDEX = "__spyt_streaming_src_row_index";

  /** The stateful variants' grouping column ({@code id % --keys}) and their count. */
  static final String KEY_COLUMN = "key";

  static final String COUNT_COLUMN = "count";

  /**
   * Shuffle partitions of every query: a stateful real-time query runs one task per shuffle
   * partition beside the source's tasks (a pipelined shuffle), each on a slot of its own.
   */
  static final int SHUFFLE_PARTITIONS = 2;

  private static final long FIRST_ROW_TIMEOUT_MS = 180_000;
  private static final long DRAIN_TIMEOUT_MS = 30_000;
  private static final long WINDOW_LEAD_MICROS = 100_000;
  private static final long PRIME_BATCH_MS = 250;

  /** The Kafka value's JSON: the queue's columns. */
  private static final StructType KAFKA_VALUE =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add(LatencyRecorder.SENT_COLUMN, DataTypes.LongType, false);

  private final SparkSession spark;
  private final LatencyOptions options;
  private final PrintStream out;
  private final String storeName = "latency-" + UUID.randomUUID().toString().substring(0, 8);
  private final String token = UUID.randomUUID().toString();
  private final Map<String, LatencyStore> stores = new LinkedHashMap<>();
  private final List<YtEmulator> emulators = new ArrayList<>();
  private KafkaBroker kafka;
  private int runs;

  /** Groups in the order run, each with its variants' figures. */
  final List<Group> groups = new ArrayList<>();

  /**
   * One backend, rate and trigger duration, with the figures of its variants: each run's ({@code
   * runs}, in the order of the rounds) and their rows pooled ({@code stats}).
   */
  record Group(
      String backend,
      int rate,
      int triggerSeconds,
      int windowSeconds,
      String loadBefore,
      String loadAfter,
      Map<Variant, List<LatencyStats>> runs,
      Map<Variant, LatencyStats> stats) {

    /** The group of {@code runs}, each variant's runs pooled into its {@code stats}. */
    static Group of(
        String backend,
        int rate,
        int triggerSeconds,
        int windowSeconds,
        String loadBefore,
        String loadAfter,
        Map<Variant, List<LatencyStats>> runs) {
      Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
      runs.forEach((v, list) -> stats.put(v, LatencyStats.pooled(list)));
      return new Group(
          backend, rate, triggerSeconds, windowSeconds, loadBefore, loadAfter, runs, stats);
    }

    String title() {
      return String.format(
          java.util.Locale.ROOT,
          "%s, %,d rows/s, RealTime %d s (%d s measured)",
          backend,
          rate,
          triggerSeconds,
          windowSeconds);
    }
  }

  LatencyBench(SparkSession spark, LatencyOptions options, PrintStream out) {
    this.spark = spark;
    this.options = options;
    this.out = out;
    spark.conf().set("spark.hadoop.yt.token", token);
  }

  /** The Kafka broker, started on first use. */
  private KafkaBroker kafka() throws IOException, InterruptedException {
    if (kafka == null) {
      kafka = KafkaBroker.start("1g");
    }
    return kafka;
  }

  /**
   * The store of {@code backend}, started on first use: the in-memory cluster in this JVM; the
   * emulator in this JVM, or with {@code --emulator-jvm own} in a JVM of its own that gets this
   * JVM's {@code -X} options (heap, collector; not {@code -Xlog}, whose file is this JVM's).
   */
  LatencyStore store(String backend) {
    return stores.computeIfAbsent(
        backend,
        b -> {
          if (b.equals("inmemory")) {
            return InProcessStore.inMemory(storeName);
          }
          if (!options.emulatorOwnJvm()) {
            YtEmulator emulator =
                YtEmulator.start(
                    EmulatorOptions.defaults().withToken(token).withClusterName(storeName));
            emulators.add(emulator);
            return InProcessStore.behind(emulator.cluster(), emulator.url());
          }
          List<String> javaOptions = new ArrayList<>();
          for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-X") && !a.startsWith("-Xlog")) {
              javaOptions.add(a);
            }
          }
          return new ChildProcessStore(storeName, token, javaOptions);
        });
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    LatencyOptions options;
    try {
      options = LatencyOptions.parse(args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      System.exit(2);
      return;
    }
    SparkSession spark = session(options.cores());
    try {
      checkSparkVersion(options.variants(), spark.version());
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      spark.stop();
      System.exit(2);
      return;
    }
    int code = 0;
    try {
      LatencyBench bench = new LatencyBench(spark, options, out);
      try {
        bench.runAll();
      } finally {
        bench.close();
      }
      out.println();
      out.print(bench.writeReport());
    } catch (Exception e) {
      out.println("latency benchmark failed: " + e);
      e.printStackTrace(out);
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** {@code local[cores]}: Real-time Mode needs a task slot per task, plus room to spare. */
  static SparkSession session(int cores) {
    return SparkSession.builder()
        .master("local[" + cores + "]")
        .appName("ytstream-latency-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", Integer.toString(SHUFFLE_PARTITIONS))
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate();
  }

  /**
   * Refuses stateful variants on a Spark before 4.3, whose Real-time Mode rejects aggregations
   * ({@code STREAMING_REAL_TIME_MODE}) only after the first query started.
   */
  static void checkSparkVersion(List<Variant> variants, String sparkVersion) {
    List<String> stateful = variants.stream().filter(Variant::stateful).map(v -> v.key).toList();
    if (stateful.isEmpty()) {
      return;
    }
    String[] parts = sparkVersion.split("[.-]");
    int major = Integer.parseInt(parts[0]);
    int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    if (major < 4 || (major == 4 && minor < 3)) {
      throw new IllegalArgumentException(
          "option --variants names "
              + String.join(",", stateful)
              + ", which need Spark 4.3 or newer (Real-time Mode runs aggregations from 4.3 on),"
              + " but this JVM runs Spark "
              + sparkVersion
              + "; run them with Spark 4.3's jars on the class path (benchmarks/run-all --only"
              + " latency-stateful) or leave them out");
    }
  }

  void runAll() throws Exception {
    for (String backend : options.backends()) {
      if (options.primeSeconds() > 0) {
        prime(backend);
      }
      for (int rate : options.rates()) {
        for (int trigger : options.triggerSeconds()) {
          runGroup(backend, rate, trigger);
        }
      }
    }
  }

  /**
   * Runs every variant once on {@code backend} at the first rate, {@code --prime} seconds measured,
   * and discards the figures: without it the first variant of the JVM also pays for class loading
   * and JIT compilation (seen as a longer tail of whichever variant ran first). Each backend is
   * primed before its first group: over the emulator the source, the writers and the checkpoints
   * run code (HTTP client and server, JSON) that in-memory runs never touch; primed only once, the
   * first emulator group's first round had boundary gaps up to twice the later rounds'. The priming
   * runs have real-time batches of {@link #PRIME_BATCH_MS}: the code of a batch boundary (Spark's
   * commit, planning and job submission, ours) runs once per boundary, so at the measured trigger
   * durations it would stay cold for minutes, and whichever variant ran first paid for its
   * compilation (the first of a round had boundaries up to twice as long as the last).
   */
  void prime(String backend) throws Exception {
    LatencyStore store = store(backend);
    spark.conf().set("spark.hadoop.yt.proxy", store.address());
    spark.conf().set(MIN_BATCH, Long.toString(PRIME_BATCH_MS));
    try {
      for (Variant v : options.variants()) {
        out.printf("priming (discarded): %s, %s ...%n", backend, v.key);
        runVariant(v, store, options.rates().get(0), PRIME_BATCH_MS, options.primeSeconds());
      }
    } finally {
      spark.conf().unset(MIN_BATCH);
    }
  }

  /**
   * Runs the group's variants one after the other, {@code --repeat} rounds of them (so slow drifts
   * of the machine touch every variant alike), each round starting with the next variant (none is
   * always first after the collection between groups), and keeps each variant's runs pooled.
   */
  void runGroup(String backend, int rate, int trigger) throws Exception {
    LatencyStore store = store(backend);
    spark.conf().set("spark.hadoop.yt.proxy", store.address());
    spark.conf().set(MIN_BATCH, Long.toString(Math.min(5000L, trigger * 1000L)));
    int window = options.windowFor(trigger);
    String before = loadAverage();
    Map<Variant, List<LatencyStats>> runs = new LinkedHashMap<>();
    try {
      for (int round = 1; round <= options.repeat(); round++) {
        for (Variant v : inRound(options.variants(), round)) {
          out.printf(
              "%s, %d rows/s, RealTime %d s: %s (run %d of %d) ...%n",
              backend, rate, trigger, v.key, round, options.repeat());
          LatencyStats s = runVariant(v, store, rate, trigger * 1000L, window);
          out.printf(
              "  %d/%d rows, p50 %s ms, p99 %s ms, max %s ms%n",
              s.delivered,
              s.expected,
              LatencyReport.ms(s.p50),
              LatencyReport.ms(s.p99),
              LatencyReport.ms(s.max));
          runs.computeIfAbsent(v, k -> new ArrayList<>()).add(s);
        }
      }
    } finally {
      spark.conf().unset(MIN_BATCH);
    }
    groups.add(Group.of(backend, rate, trigger, window, before, loadAverage(), runs));
  }

  /** The variants in the order of round {@code round} (from 1): rotated by one per round. */
  static List<Variant> inRound(List<Variant> variants, int round) {
    List<Variant> order = new ArrayList<>(variants);
    Collections.rotate(order, -((round - 1) % Math.max(1, order.size())));
    return order;
  }

  LatencyStats runVariant(Variant v, LatencyStore store, int rate, long triggerMs, int window)
      throws Exception {
    String id = v.key + "-" + (++runs);
    String queue = "//latency/" + id + "/queue";
    String consumer = "//latency/" + id + "/consumer";
    String output = "//latency/" + id + "/out";
    String checkpoint = "yt:///latency/" + id + "/checkpoint";
    int partitions = options.partitions();
    store.createOutput(YPath.of(output), v.output(), partitions);
    LatencyRecorder recorder = LatencyRecorder.of(output);
    if (v.floor()) {
      return runFloor(v, store, "//latency/" + id, output, rate, triggerMs, window, recorder);
    }
    LatencyStore.Producer producer = null;
    Dataset<Row> rows;
    if (v.kafka()) {
      kafka().createTopic(id, partitions);
      rows =
          spark
              .readStream()
              .format("kafka")
              .option("kafka.bootstrap.servers", kafka().bootstrap())
              .option("subscribe", id)
              .option("startingOffsets", "earliest")
              .load()
              .selectExpr("CAST(value AS STRING) AS json")
              .select(from_json(col("json"), KAFKA_VALUE).alias("row"))
              .select("row.id", "row." + LatencyRecorder.SENT_COLUMN);
    } else {
      store.createQueue(YPath.of(queue), YPath.of(consumer), partitions);
      // The source's columns as they come: the writers map columns by name, so the exactly-once
      // one needs no select to find the source position, and Spark plans no projection.
      rows =
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", consumer)
              .option("include_service_columns", v.exactlyOnce())
              .option("real_time_partitions_per_task", v.partitionsPerTask(partitions))
              .load(queue);
    }
    if (v.stateful()) {
      rows = counts(rows, options.keys());
    }
    DataStreamWriter<Row> writer =
        rows.writeStream()
            .queryName("latency_" + id.replace('-', '_'))
            .foreach(writer(v, "timed:" + store.address(), output, rows.schema()))
            .option("checkpointLocation", checkpoint);
    writer =
        v.realTime()
            ? writer.outputMode("update").trigger(Trigger.RealTime(triggerMs))
            : writer.outputMode("append").trigger(Trigger.ProcessingTime(0));
    StreamingQuery query = writer.start();
    try {
      producer =
          v.kafka()
              ? store.startKafkaProducer(kafka().bootstrap(), id, partitions, rate)
              : store.startProducer(YPath.of(queue), partitions, rate);
      await(query, () -> recorder.writes() > 0, FIRST_ROW_TIMEOUT_MS, "a first row at the sink");
      Thread.sleep(options.warmupSeconds() * 1000L);
      // A moment ahead: the producer in the emulator's own JVM must hear of the window before it.
      long from = LatencyClock.nowMicros() + WINDOW_LEAD_MICROS;
      long to = from + window * 1_000_000L;
      recorder.window(from, to);
      producer.window(from, to);
      while (LatencyClock.nowMicros() < to) {
        checkAlive(query);
        Thread.sleep(100);
      }
      long expected = producer.stop();
      try {
        await(query, () -> recorder.count() >= expected, DRAIN_TIMEOUT_MS, "every row sent");
      } catch (TimeoutException e) {
        out.println("  " + e.getMessage());
      }
      return new LatencyStats(expected, recorder.sortedMicros());
    } finally {
      if (producer != null) {
        producer.close();
      }
      query.stop();
      awaitTasksEnded();
      LatencyRecorder.forget(output);
      store.forget(YPath.of("//latency/" + id));
      System.gc();
    }
  }

  /**
   * {@code groupBy(key).count()} over {@code id % keys}, with the latest send time counted: each
   * update row's {@code sent_us} is the send time of the row that made it, so the sink's latency is
   * that row's. Exact because a key's rows all come from one partition, in the order sent: row g
   * goes to partition {@code g % partitions}, and {@code keys} is a multiple of the partitions.
   */
  static Dataset<Row> counts(Dataset<Row> rows, int keys) {
    return rows.select(
            col("id").mod(lit((long) keys)).alias(KEY_COLUMN), col(LatencyRecorder.SENT_COLUMN))
        .groupBy(KEY_COLUMN)
        .agg(
            count(lit(1)).alias(COUNT_COLUMN),
            max(LatencyRecorder.SENT_COLUMN).alias(LatencyRecorder.SENT_COLUMN));
  }

  /**
   * The control ({@link WriterFloor}): the variant's writer fed directly at {@code rate}, a writer
   * per partition, a new epoch every {@code triggerMs}, measured as the query's rows are.
   */
  private LatencyStats runFloor(
      Variant v,
      LatencyStore store,
      String directory,
      String output,
      int rate,
      long triggerMs,
      int window,
      LatencyRecorder recorder)
      throws InterruptedException {
    String proxy = "timed:" + store.address();
    WriterFloor feeders =
        new WriterFloor(
            () -> writer(v, proxy, output, null),
            v.exactlyOnce(),
            options.partitions(),
            rate,
            triggerMs);
    try {
      long deadline = System.currentTimeMillis() + FIRST_ROW_TIMEOUT_MS;
      while (recorder.writes() == 0) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(
              v.key + ": no write after " + FIRST_ROW_TIMEOUT_MS + " ms");
        }
        Thread.sleep(20);
      }
      Thread.sleep(options.warmupSeconds() * 1000L);
      long from = LatencyClock.nowMicros() + WINDOW_LEAD_MICROS;
      long to = from + window * 1_000_000L;
      recorder.window(from, to);
      feeders.window(from, to);
      while (LatencyClock.nowMicros() < to) {
        Thread.sleep(100);
      }
      // Stopping closes each writer, which writes what it still holds.
      long expected = feeders.stop();
      return new LatencyStats(expected, recorder.sortedMicros());
    } finally {
      feeders.close();
      LatencyRecorder.forget(output);
      store.forget(YPath.of(directory));
      System.gc();
    }
  }

  /**
   * Waits (up to 10 s) until the stopped query's tasks have ended: {@code stop()} returns while
   * killed real-time tasks still run, and removing their tables under them makes them fail noisily.
   */
  private void awaitTasksEnded() throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (spark.sparkContext().statusTracker().getActiveStageIds().length > 0
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
  }

  private ForeachWriter<Row> writer(Variant v, String proxy, String output, StructType rowSchema) {
    if (v.handoff()) {
      return new HandoffWriter(output);
    }
    Duration flush = Duration.ofMillis(options.flushMs());
    if (v.stateful()) {
      return YtUpsertForeachWriter.builder()
          .proxy(proxy)
          .path(output)
          .flushInterval(flush)
          .rowSchema(rowSchema)
          .build();
    }
    return v.exactlyOnce()
        ? YtExactlyOnceForeachWriter.builder()
            .proxy(proxy)
            .path(output)
            .flushInterval(flush)
            .build()
        : YtAppendForeachWriter.builder().proxy(proxy).path(output).flushInterval(flush).build();
  }

  private static void await(StreamingQuery q, BooleanSupplier done, long timeoutMs, String what)
      throws InterruptedException, TimeoutException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (!done.getAsBoolean()) {
      checkAlive(q);
      if (System.currentTimeMillis() > deadline) {
        throw new TimeoutException("no " + what + " after " + timeoutMs + " ms");
      }
      Thread.sleep(20);
    }
  }

  private static void checkAlive(StreamingQuery q) {
    if (q.exception().isDefined()) {
      throw new IllegalStateException("query " + q.name() + " failed", q.exception().get());
    }
    if (!q.isActive()) {
      throw new IllegalStateException("query " + q.name() + " stopped");
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** Writes the table and the results file's rows to {@code --out}; returns the table. */
  String writeReport() throws IOException {
    String table = LatencyReport.table(groups, options, spark.version());
    Files.createDirectories(options.out());
    Files.writeString(options.out().resolve("latency-table.md"), table, StandardCharsets.UTF_8);
    Files.writeString(
        options.out().resolve("targets.md"), LatencyReport.targets(groups), StandardCharsets.UTF_8);
    return table;
  }

  void close() {
    spark.conf().unset("spark.hadoop.yt.token");
    spark.conf().unset("spark.hadoop.yt.proxy");
    stores.values().forEach(LatencyStore::close);
    emulators.forEach(YtEmulator::close);
    if (kafka != null) {
      kafka.close();
    }
  }
}
