package io.ytstream.spark;

import io.ytstream.spark.config.YtSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * A second Spark driver in a JVM of its own, running {@link TwoLiveDriversTest}'s query: Spark
 * refuses two active queries on one checkpoint in one JVM, so a live second driver needs its own
 * process. It reaches the cluster only over HTTP (the emulator), and reports on stdout, one line
 * each, prefixed with {@link #PREFIX}: {@code running}, {@code batch <id> rows <n>} after each
 * batch, then {@code failed <message>} when the query fails or {@code stopped} when it was stopped.
 * A line {@code stop} on stdin (or its end) stops the query.
 *
 * <p>Arguments: proxy URL, queue, consumer, output table, checkpoint location, queue producer, and
 * the {@link TwoLiveDriversTest.Mode} (the producer is used by the producer modes only).
 */
public final class SecondDriverMain {

  static final String PREFIX = "second-driver: ";

  private SecondDriverMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    TwoLiveDriversTest.Mode mode = TwoLiveDriversTest.Mode.valueOf(args[6]);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2,4]")
            .appName("ytstream-second-driver")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config(YtSettings.PROXY, args[0])
            .config(
                YtSettings.TRANSACTIONAL,
                Boolean.toString(mode == TwoLiveDriversTest.Mode.TRANSACTIONAL))
            .getOrCreate();
    spark
        .streams()
        .addListener(
            new StreamingQueryListener() {
              @Override
              public void onQueryStarted(QueryStartedEvent event) {}

              @Override
              public void onQueryProgress(QueryProgressEvent event) {
                out.println(
                    PREFIX
                        + "batch "
                        + event.progress().batchId()
                        + " rows "
                        + event.progress().numInputRows());
              }

              @Override
              public void onQueryTerminated(QueryTerminatedEvent event) {}
            });
    StreamingQuery q =
        TwoLiveDriversTest.start(spark, mode, args[1], args[2], args[3], args[5], args[4]);
    out.println(PREFIX + "running");
    Thread stopper =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null && !line.equals("stop")) {
                  // Only "stop" means anything.
                }
              } catch (java.io.IOException e) {
                // The parent is gone: stop as for "stop".
              }
              try {
                q.stop();
              } catch (Exception e) {
                // The outcome is reported from the query's exception below.
              }
            },
            "second-driver-stdin");
    stopper.setDaemon(true);
    stopper.start();
    try {
      q.awaitTermination();
      out.println(PREFIX + "stopped");
    } catch (StreamingQueryException e) {
      out.println(PREFIX + "failed " + oneLine(e.getMessage()));
    }
    spark.stop();
    System.exit(0);
  }

  private static String oneLine(String message) {
    return String.valueOf(message).replace('\n', ' ').replace('\r', ' ');
  }
}
