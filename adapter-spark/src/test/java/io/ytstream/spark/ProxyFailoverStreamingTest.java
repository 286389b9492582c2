package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Streams over three emulated proxies, one banned (503, 2100) and another overloaded (503, 108)
 * while the query runs, as {@code yt/yt/server/http_proxy/context.cpp} answers then: every row
 * reaches the output exactly once, in transactional mode and through producer sessions. Before the
 * ban the heavy requests (pulls) spread over all three proxies; after it the healthy one serves
 * them, and each refusing proxy is asked only a few times, since the client bans it locally. A
 * batch whose transaction lived on a proxy that became unavailable fails its run; the query is
 * restarted, as a supervisor would, and redoes the batch in a new transaction.
 */
class ProxyFailoverStreamingTest {

  private static final String TOKEN = "proxy-failover-token";
  private static final String QUEUE = "//q";
  private static final int ROWS_BEFORE = 40;
  private static final int ROWS_AFTER = 40;
  private static final int MAX_RUNS = 5;
  private static final List<String> HEAVY =
      List.of("pull_queue_consumer", "select_rows", "insert_rows", "read_file", "write_file");
  // Heavy commands the stream sends outside any transaction.
  private static final List<String> FREE_TO_MOVE =
      List.of("pull_queue_consumer", "read_file", "write_file");

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withProxyCount(3).withToken(TOKEN));

  private final SparkSession spark = SharedSpark.get();
  private static final String SEED = "spark.hadoop.yt.http.proxyChoiceSeed";

  @AfterEach
  void resetSession() {
    List.of(YtSettings.PROXY, YtSettings.TOKEN, SEED, YtSettings.TRANSACTIONAL)
        .forEach(spark.conf()::unset);
  }

  @Test
  void transactionalStreamWritesEveryRowOnceWhileProxiesAreBannedAndOverloaded(YtEmulator emulator)
      throws Exception {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer("//c", QUEUE).orderedTable("//out", 2);

    List<Long> input =
        stream(c, "//c", "//ckpt/tx", true, w -> w.format("yt").option("path", "//out"));

    assertEquals(input, c.ids("//out"), "every row exactly once");
  }

  @Test
  void producerStreamWritesEveryRowOnceWhileProxiesAreBannedAndOverloaded(YtEmulator emulator)
      throws Exception {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer("//c", QUEUE).orderedTable("//outq", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));

    List<Long> input =
        stream(
            c,
            "//c",
            "//ckpt/producer",
            false,
            w -> w.format("yt").option("path", "//outq").option("producer_path", "//producer"));

    assertEquals(input, c.ids("//outq"), "every row exactly once");
  }

  /** What the query writes into. */
  @FunctionalInterface
  private interface Sink {
    DataStreamWriter<org.apache.spark.sql.Row> to(DataStreamWriter<org.apache.spark.sql.Row> w);
  }

  /**
   * Runs the query until its consumer has read every row: the first {@link #ROWS_BEFORE} rows with
   * every proxy serving, proxy 2 banned and proxy 3 overloaded once the first batch with rows is
   * done, then {@link #ROWS_AFTER} more rows. Returns the input ids, sorted.
   */
  private List<Long> stream(
      EmulatorCluster c, String consumer, String checkpoint, boolean transactional, Sink sink)
      throws Exception {
    YtEmulator emulator = c.emulator;
    spark.conf().set(YtSettings.PROXY, c.url());
    spark.conf().set(YtSettings.TOKEN, TOKEN);
    spark.conf().set(SEED, "20");
    spark.conf().set(YtSettings.TRANSACTIONAL, Boolean.toString(transactional));
    c.cluster.checkpoints().createDirectories(YPath.of("//ckpt"));
    List<Long> input = produce(c, 0, ROWS_BEFORE);
    List<String> runs = new ArrayList<>();

    // Every proxy serving: the pulls spread over the three.
    runUntilDone(c, consumer, checkpoint, sink, input.size(), runs, null);
    for (int proxy = 0; proxy < 3; proxy++) {
      assertTrue(
          emulator.requestCounts().count(proxy, "pull_queue_consumer") > 0,
          "proxy " + (proxy + 1) + " got pulls before the ban: " + emulator.requestCounts());
    }

    // Banned and overloaded while the query runs: as soon as proxy 2 or 3 has started a
    // transaction, so that a batch (or a producer share) loses its transaction there, or at the
    // latest once a batch with rows is done.
    input.addAll(produce(c, ROWS_BEFORE, ROWS_AFTER));
    emulator.requestCounts().reset();
    AtomicBoolean struck = new AtomicBoolean();
    Runnable strikeNow =
        () -> {
          if (struck.compareAndSet(false, true)) {
            emulator.banProxy(1);
            emulator.overloadProxy(2);
          }
        };
    Thread watcher =
        new Thread(
            () -> {
              while (!struck.get()) {
                if (emulator.requestCounts().count(1, "start_transaction")
                        + emulator.requestCounts().count(2, "start_transaction")
                    > 0) {
                  strikeNow.run();
                }
                Thread.onSpinWait();
              }
            },
            "proxy-failover-watcher");
    watcher.setDaemon(true);
    StreamingQueryListener strike =
        new StreamingQueryListener() {
          @Override
          public void onQueryStarted(QueryStartedEvent event) {}

          @Override
          public void onQueryProgress(QueryProgressEvent event) {
            if (event.progress().numInputRows() > 0) {
              strikeNow.run();
            }
          }

          @Override
          public void onQueryTerminated(QueryTerminatedEvent event) {}
        };
    spark.streams().addListener(strike);
    watcher.start();
    try {
      runUntilDone(c, consumer, checkpoint, sink, input.size(), runs, struck);
    } finally {
      spark.streams().removeListener(strike);
      struck.set(true);
      watcher.join();
    }
    assertTrue(struck.get(), "the proxies were struck mid-run: " + runs);
    long healthy = 0;
    for (String command : HEAVY) {
      healthy += emulator.requestCounts().count(0, command);
    }
    assertTrue(healthy > 0, "the healthy proxy served the heavy requests");
    // Heavy requests outside a transaction may go to any proxy: a client that chose at random
    // without banning locally would send about two thirds of them to the refusing proxies. (A
    // transaction's own requests cannot leave its proxy: those are refused until the batch fails.)
    for (int proxy = 1; proxy < 3; proxy++) {
      long refused = 0;
      for (String command : FREE_TO_MOVE) {
        refused += emulator.refusedCounts().count(proxy, command);
      }
      assertTrue(
          refused <= 3,
          "proxy "
              + (proxy + 1)
              + " refused "
              + emulator.refusedCounts().byCommand(proxy)
              + " while the healthy one served "
              + healthy
              + " heavy requests; runs "
              + runs);
    }
    System.err.printf(
        Locale.ROOT,
        "proxy failover %s: commands run since the first part %s; refused %s; %s%n",
        checkpoint,
        emulator.requestCounts(),
        emulator.refusedCounts(),
        runs);
    input.sort(Long::compare);
    return input;
  }

  private void runUntilDone(
      EmulatorCluster c,
      String consumer,
      String checkpoint,
      Sink sink,
      int rows,
      List<String> runs,
      AtomicBoolean struck)
      throws Exception {
    for (int run = 0; run < MAX_RUNS && c.consumerTotal(consumer, QUEUE) < rows; run++) {
      StreamingQuery q =
          sink.to(
                  spark
                      .readStream()
                      .format("yt")
                      .option("consumer_path", consumer)
                      .option("max_rows_per_partition", "3")
                      .load(QUEUE)
                      .writeStream())
              .option("checkpointLocation", "yt:/" + checkpoint)
              .trigger(Trigger.AvailableNow())
              .start();
      String outcome = "ok";
      try {
        q.awaitTermination();
      } catch (Exception e) {
        // A batch whose transaction was on a proxy that became unavailable: run again.
        outcome = "failed: " + rootMessage(e);
      } finally {
        q.stop();
      }
      runs.add(
          String.format(
              Locale.ROOT,
              "run %d%s: %s (consumer at %d of %d)",
              run,
              struck != null && struck.get() ? " after the strike" : "",
              outcome,
              c.consumerTotal(consumer, QUEUE),
              rows));
    }
    assertEquals(rows, c.consumerTotal(consumer, QUEUE), "the consumer reached the end: " + runs);
  }

  private static List<Long> produce(EmulatorCluster c, long from, int count) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < from + count; id++) {
      int tablet = (int) (id % 2);
      c.produce(QUEUE, tablet, id, id + 1);
      ids.add(id);
    }
    return ids;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    String m = String.valueOf(t.getMessage());
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }
}
