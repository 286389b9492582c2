package io.ytstream.examples;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.upper;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.examples.DemoOptions.DeliveryMode;
import io.ytstream.examples.DemoOptions.Kill;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.Trigger;

/**
 * README command one: starts the YTsaurus emulator (HTTP, loopback, a required token), creates a
 * queue with several partitions, a registered consumer and an output table, feeds rows at a steady
 * rate while a Spark query reads the queue and writes the table over HTTP, kills the query
 * mid-stream and restarts it from its {@code yt:///} checkpoint, drains, and verifies the output:
 * rows in and out, duplicates, lost rows, consumer offsets against the checkpoint, throughput.
 *
 * <pre>
 * mvn -B -q -pl examples -am test-compile exec:java -Dexec.args="--mode transactional"
 * </pre>
 */
public final class StreamingDemo {

  static final YPath QUEUE = YPath.of("//home/demo/queue");
  static final YPath CONSUMER = YPath.of("//home/demo/consumer");
  static final YPath OUTPUT = YPath.of("//home/demo/output");
  static final YPath PRODUCER = YPath.of("//home/demo/producer");
  static final YPath CHECKPOINT = YPath.of("//home/demo/checkpoint");
  static final String CHECKPOINT_URI = "yt://" + CHECKPOINT.toString().substring(1);

  static final String TABLET_INDEX_COLUMN = "__spyt_streaming_src_tablet_index";
  static final String ROW_INDEX_COLUMN = "__spyt_streaming_src_row_index";

  private static final long KILL_TIMEOUT_MS = 60_000;

  private final SparkSession spark;
  private final DemoOptions options;
  private final PrintStream out;

  private final AtomicInteger restarts = new AtomicInteger();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong processedRows = new AtomicLong();
  private final AtomicLong processingMillis = new AtomicLong();
  private volatile String queryState = "starting";

  private StreamingDemo(SparkSession spark, DemoOptions options, PrintStream out) {
    this.spark = spark;
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      if (!e.getMessage().contains("usage:")) {
        out.println(DemoOptions.USAGE);
      }
      System.exit(2);
      return;
    }
    int code;
    SparkSession spark = newSession();
    try {
      String dir = System.getProperty(Transcript.DIR_PROPERTY);
      code =
          dir == null
              ? runAndPrint(spark, options, out)
              : runAndPrint(spark, options, out, Path.of(dir));
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /**
   * Runs the demo, prints its progress and verification to {@code console} and the transcript file
   * in {@code dir} ({@link Transcript}); returns the exit code (0 on PASS).
   */
  static int runAndPrint(SparkSession spark, DemoOptions options, PrintStream console, Path dir) {
    Transcript transcript;
    try {
      transcript = Transcript.open(console, dir, options.mode());
    } catch (IOException e) {
      console.println("demo failed: cannot write the transcript in " + dir + ": " + e);
      return 3;
    }
    int code;
    try (transcript) {
      code = runAndPrint(spark, options, transcript.out());
    } catch (IOException e) {
      console.println("demo failed: cannot write " + transcript.path() + ": " + e);
      return 3;
    }
    console.println("transcript: " + transcript.path());
    return code;
  }

  private static int runAndPrint(SparkSession spark, DemoOptions options, PrintStream out) {
    try {
      DemoReport report = run(spark, options, out);
      report.print(out);
      return report.passed() ? 0 : 1;
    } catch (Exception e) {
      out.println("demo failed: " + e);
      return 3;
    }
  }

  /** The demo's session: local[2], no UI, bound to loopback. */
  public static SparkSession newSession() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("ytstream-streaming-demo")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate();
  }

  /** Runs the whole demo against a fresh emulator and returns what it verified. */
  public static DemoReport run(SparkSession spark, DemoOptions options, PrintStream out)
      throws Exception {
    return new StreamingDemo(spark, options, out).run();
  }

  private DemoReport run() throws Exception {
    String token = UUID.randomUUID().toString();
    try (YtEmulator yt = YtEmulator.start(EmulatorOptions.defaults().withToken(token))) {
      InMemoryCluster admin = yt.cluster();
      createTables(admin);
      out.printf(
          Locale.ROOT,
          "ytstream streaming demo: mode %s, %,d rows at %,d rows/s into %s (%d partitions),"
              + " seed %d%n",
          options.mode().flag(),
          options.rows(),
          options.rowsPerSecond(),
          QUEUE,
          options.partitions(),
          options.seed());
      out.printf(
          Locale.ROOT,
          "emulator %s (token required), consumer %s (registered), output %s (%s),"
              + " checkpoint %s%n",
          yt.url(),
          CONSUMER,
          OUTPUT,
          switch (options.mode()) {
            case IDEMPOTENT -> "sorted by the service columns";
            case PRODUCER -> "an ordered queue, written through the queue producer " + PRODUCER;
            case TRANSACTIONAL, AT_LEAST_ONCE -> "ordered";
          },
          CHECKPOINT_URI);
      configureSession(yt.url(), token);

      StreamingQueryListener listener = new BatchCounter();
      spark.streams().addListener(listener);
      ScheduledExecutorService ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "demo-progress");
                t.setDaemon(true);
                return t;
              });
      try (YtCluster producer =
              ClusterConnectors.connect(
                  yt.url(), ConnectionSettings.of(Map.of("yt.token", token)));
          Feeder feeder = new Feeder(producer, options)) {
        long started = System.nanoTime();
        ScheduledFuture<?> progress =
            ticker.scheduleAtFixedRate(
                () -> printProgress(admin, feeder, started), 1, 1, TimeUnit.SECONDS);
        List<String> kills = new ArrayList<>();
        long batchesAtStart = batches.get();
        // Warm-up: Spark's first batch is slow (planning, code generation); let the query finish
        // one over a few primed rows before the steady feed starts.
        feeder.prime(Math.max(1, options.rows() / 100));
        StreamingQuery query = startQuery();
        awaitBatchSince(batchesAtStart, feeder);
        out.printf(Locale.ROOT, "query warmed up on %,d rows; steady feed starts%n", feeder.fed());
        // Throughput counts from here: Spark's start-up, the first query start and the first
        // batch are behind us.
        long warmupRows = feeder.fed();
        long streamingStarted = System.nanoTime();
        feeder.start();
        int k = 0;
        for (Kill kill : options.kills()) {
          k++;
          long threshold = (long) options.rows() * k / (options.kills().size() + 1);
          // Kill k falls when the query has read k/(kills+1) of the rows (so rows are still
          // pending and a fault has a batch to hit), and not before it finished a batch since it
          // was last started.
          awaitProcessed(threshold, feeder);
          awaitBatchSince(batchesAtStart, feeder);
          String what = kill(kill, query, admin, feeder);
          String line =
              String.format(
                  Locale.ROOT,
                  "kill %d/%d at %,d rows fed, %,d read: %s -> %s",
                  k,
                  options.kills().size(),
                  feeder.fed(),
                  processedRows.get(),
                  kill.description(),
                  what);
          out.println(line);
          kills.add(line);
          batchesAtStart = batches.get();
          query = startQuery();
          restarts.incrementAndGet();
          out.printf(Locale.ROOT, "restart %d: query started again from %s%n", k, CHECKPOINT_URI);
        }
        feeder.awaitDone();
        out.printf(Locale.ROOT, "feeder done: %,d rows; draining%n", feeder.fed());
        queryState = "draining";
        query.processAllAvailable();
        awaitConsumerAtCheckpoint(admin);
        double seconds = (System.nanoTime() - streamingStarted) / 1e9;
        query.stop();
        queryState = "stopped";
        progress.cancel(false);
        printProgress(admin, feeder, started);
        return verify(admin, feeder.fed(), kills, warmupRows, seconds);
      } finally {
        ticker.shutdownNow();
        spark.streams().removeListener(listener);
        for (StreamingQuery q : spark.streams().active()) {
          q.stop();
        }
      }
    }
  }

  private void awaitProcessed(long rows, Feeder feeder) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_TIMEOUT_MS * 2);
    while (processedRows.get() < rows && System.nanoTime() < deadline) {
      feeder.awaitFed(0);
      Thread.sleep(20);
    }
  }

  /** Kills happen mid-stream: after the running query has finished a batch with data. */
  private void awaitBatchSince(long count, Feeder feeder) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_TIMEOUT_MS * 2);
    while (batches.get() <= count
        && System.nanoTime() < deadline
        && (feeder.fed() < options.rows() || !feeder.started())) {
      Thread.sleep(20);
    }
  }

  private void createTables(InMemoryCluster admin) {
    List<Column> rowColumns =
        List.of(
            new Column("id", "int64", false, false), new Column("payload", "string", false, false));
    admin.createOrderedTable(QUEUE, rowColumns, options.partitions());
    admin.createConsumer(CONSUMER);
    admin.registerConsumer(QUEUE, CONSUMER, true);
    if (options.mode() == DeliveryMode.IDEMPOTENT) {
      admin.createSortedTable(
          OUTPUT,
          List.of(
              new Column(TABLET_INDEX_COLUMN, "int64", true, true),
              new Column(ROW_INDEX_COLUMN, "int64", true, true),
              new Column("id", "int64", false, false),
              new Column("payload", "string", false, false)));
    } else {
      admin.createOrderedTable(OUTPUT, rowColumns, options.partitions());
    }
    if (options.mode() == DeliveryMode.PRODUCER) {
      admin.createQueueProducer(PRODUCER);
    }
  }

  private void configureSession(String proxy, String token) {
    spark.conf().set("spark.hadoop.yt.proxy", proxy);
    spark.conf().set("spark.hadoop.yt.token", token);
    spark
        .conf()
        .set(
            "spark.yt.streaming.transactional",
            Boolean.toString(options.mode() == DeliveryMode.TRANSACTIONAL));
    // Several write requests per task, so a fault can cut an at-least-once batch in the middle.
    spark.conf().set("spark.yt.write.dynBatchSize", "500");
  }

  private StreamingQuery startQuery() throws TimeoutException {
    Dataset<org.apache.spark.sql.Row> rows =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", CONSUMER.toString())
            .option("max_rows_per_partition", Integer.toString(options.maxRowsPerPartition()))
            .option(
                "include_service_columns",
                Boolean.toString(options.mode() == DeliveryMode.IDEMPOTENT))
            .load(QUEUE.toString())
            .withColumn("payload", upper(col("payload")));
    DataStreamWriter<org.apache.spark.sql.Row> writer =
        rows.writeStream().format("yt").option("path", OUTPUT.toString());
    if (options.mode() == DeliveryMode.PRODUCER) {
      // Each task pushes its share of batch N through a session of its own, numbered from N:
      // the server skips what a replayed batch or a retried task pushes again.
      writer = writer.option("producer_path", PRODUCER.toString());
    }
    StreamingQuery query =
        writer
            .option("checkpointLocation", CHECKPOINT_URI)
            .trigger(Trigger.ProcessingTime(500))
            .start();
    queryState = "running";
    return query;
  }

  /** Takes the query down the given way; returns what happened. */
  private String kill(Kill kill, StreamingQuery query, InMemoryCluster admin, Feeder feeder)
      throws Exception {
    queryState = "killed (" + kill.flag() + ")";
    switch (kill) {
      case STOP -> {
        query.stop();
        return "stopped";
      }
      case FAULT -> {
        ClusterOperation write =
            switch (options.mode()) {
              case TRANSACTIONAL -> ClusterOperation.INSERT;
              case IDEMPOTENT -> ClusterOperation.OUTPUT_UPSERT;
              case AT_LEAST_ONCE -> ClusterOperation.OUTPUT_APPEND;
              case PRODUCER -> ClusterOperation.PRODUCER_PUSH;
            };
        // Outside a batch transaction a writer tries a failed chunk or push three times
        // (application's WriteChunk and PushThroughProducerSession); fail every attempt so that
        // the task gives up. Producer tasks push side by side (two cores), so the faults can be
        // shared out; five make one task meet three in a row.
        int times =
            switch (options.mode()) {
              case TRANSACTIONAL -> 1;
              case IDEMPOTENT, AT_LEAST_ONCE -> 3;
              case PRODUCER -> 5;
            };
        admin
            .faults()
            .failNext(write, times, YtErrorCode.GENERIC, "injected by the demo: tablet node down");
        try {
          if (query.awaitTermination(KILL_TIMEOUT_MS)) {
            return "query ended without an error (unexpected)";
          }
          int fired = admin.faults().firedCount(write);
          admin.faults().clearPending();
          query.stop();
          return "the query did not fail within "
              + KILL_TIMEOUT_MS
              + " ms ("
              + fired
              + " of the "
              + times
              + " faults on "
              + write
              + " fired); stopped instead";
        } catch (StreamingQueryException e) {
          return "query failed: " + rootMessage(e);
        } finally {
          admin.faults().clearPending();
        }
      }
      case CRASH -> {
        feeder.pause();
        try {
          query.processAllAvailable();
          query.stop();
        } finally {
          feeder.resume();
        }
        return dropLastCommit(admin);
      }
    }
    throw new AssertionError(kill);
  }

  /**
   * Removes the newest {@code commits/N} when {@code offsets/N} is the newest offset entry: what a
   * driver that died after the sink committed batch N, but before Spark logged it, leaves behind.
   */
  private String dropLastCommit(InMemoryCluster admin) {
    long offsets = newestEntry(admin, CHECKPOINT.child("offsets"));
    long commits = newestEntry(admin, CHECKPOINT.child("commits"));
    if (commits < 0 || offsets != commits) {
      return "stopped; no completed batch to replay (offsets/"
          + offsets
          + ", commits/"
          + commits
          + ")";
    }
    long rows =
        committedOffsets(admin, commits).total()
            - (commits == 0 ? 0 : committedOffsets(admin, commits - 1).total());
    admin.checkpoints().delete(CHECKPOINT.child("commits").child(Long.toString(commits)), false);
    return String.format(
        Locale.ROOT, "commits/%d removed; batch %d (%,d rows) runs again", commits, commits, rows);
  }

  private void awaitConsumerAtCheckpoint(InMemoryCluster admin) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      long last = newestEntry(admin, CHECKPOINT.child("commits"));
      if (last >= 0 && consumer(admin).equals(committedOffsets(admin, last))) {
        return;
      }
      Thread.sleep(200);
    }
  }

  private DemoReport verify(
      InMemoryCluster admin, long fed, List<String> kills, long warmupRows, double seconds) {
    List<Row> rows = admin.outputTables().readAll(OUTPUT);
    Map<Long, Integer> seen = new HashMap<>();
    for (Row r : rows) {
      seen.merge((Long) r.get("id"), 1, Integer::sum);
    }
    long duplicates = (long) rows.size() - seen.size();
    long lost = 0;
    for (long id = 0; id < fed; id++) {
      if (!seen.containsKey(id)) {
        lost++;
      }
    }
    Set<Long> unexpected = new HashSet<>(seen.keySet());
    unexpected.removeIf(id -> id >= 0 && id < fed);
    if (!unexpected.isEmpty()) {
      throw new IllegalStateException("output holds ids never fed: " + unexpected);
    }
    QueueId queue = queueId(admin);
    StreamOffsets consumer = consumer(admin);
    long last = newestEntry(admin, CHECKPOINT.child("commits"));
    StreamOffsets checkpoint = last < 0 ? StreamOffsets.empty() : committedOffsets(admin, last);
    List<DemoReport.PartitionState> partitions = new ArrayList<>();
    for (PartitionBounds b : admin.partitions(QUEUE)) {
      PartitionId p = new PartitionId(queue, b.index());
      partitions.add(
          new DemoReport.PartitionState(
              b.index(),
              b.totalRowCount(),
              consumer.getOrDefault(p, 0),
              checkpoint.getOrDefault(p, 0)));
    }
    long millis = processingMillis.get();
    return new DemoReport(
        options.mode(),
        fed,
        rows.size(),
        seen.size(),
        duplicates,
        lost,
        partitions,
        restarts.get(),
        kills,
        batches.get(),
        warmupRows,
        seconds,
        millis == 0 ? 0 : processedRows.get() * 1000.0 / millis);
  }

  private static QueueId queueId(InMemoryCluster admin) {
    return new QueueId(admin.name(), QUEUE);
  }

  private static StreamOffsets consumer(InMemoryCluster admin) {
    return admin
        .consumerOffsets()
        .read(new ConsumerId(admin.name(), CONSUMER), queueId(admin))
        .forQueue(queueId(admin));
  }

  /** The yt source's end offsets recorded in {@code offsets/N}. */
  private static StreamOffsets committedOffsets(InMemoryCluster admin, long batch) {
    String log =
        new String(
            admin.checkpoints().readFile(CHECKPOINT.child("offsets").child(Long.toString(batch))),
            StandardCharsets.UTF_8);
    String[] lines = log.split("\n", -1);
    // v1, the batch metadata, then one line per source.
    for (int i = 2; i < lines.length; i++) {
      if (lines[i].contains("\"queues\"")) {
        return OffsetsJson.parse(lines[i]).forQueue(queueId(admin));
      }
    }
    throw new IllegalStateException("no yt source offsets in offsets/" + batch + ": " + log);
  }

  private static long newestEntry(InMemoryCluster admin, YPath dir) {
    if (admin.checkpoints().status(dir).isEmpty()) {
      return -1;
    }
    long max = -1;
    for (String name : admin.checkpoints().list(dir)) {
      if (name.matches("[0-9]+")) {
        max = Math.max(max, Long.parseLong(name));
      }
    }
    return max;
  }

  private void printProgress(InMemoryCluster admin, Feeder feeder, long started) {
    try {
      int out = admin.outputTables().readAll(OUTPUT).size();
      this.out.printf(
          Locale.ROOT,
          "[%5.1fs] fed %,7d/%,d  out %,7d  batches %4d  restarts %d  query %s%n",
          (System.nanoTime() - started) / 1e9,
          feeder.fed(),
          options.rows(),
          out,
          batches.get(),
          restarts.get(),
          queryState);
    } catch (RuntimeException e) {
      this.out.println("progress: " + e.getMessage());
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = String.valueOf(t.getMessage()).replace('\n', ' ');
    return m.length() > 140 ? m.substring(0, 140) + "..." : m;
  }

  /** Counts micro-batches with data and Spark's processing time for them. */
  private final class BatchCounter extends StreamingQueryListener {
    @Override
    public void onQueryStarted(QueryStartedEvent event) {}

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
      long rows = event.progress().numInputRows();
      if (rows > 0) {
        batches.incrementAndGet();
        processedRows.addAndGet(rows);
        Long total = event.progress().durationMs().get("triggerExecution");
        if (total != null) {
          processingMillis.addAndGet(total);
        }
      }
    }

    @Override
    public void onQueryIdle(QueryIdleEvent event) {}

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {}
  }
}
