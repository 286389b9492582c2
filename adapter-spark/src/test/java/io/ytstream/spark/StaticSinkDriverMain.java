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
import org.apache.spark.sql.streaming.Trigger;

/**
 * A Spark driver in a JVM of its own streaming a queue into a static table ({@link
 * StaticTableSinkKillTest}, which kills it with SIGKILL). It reaches the cluster only over HTTP
 * (the emulator) and reports on stdout, prefixed with {@link #PREFIX}: {@code running}, {@code
 * batch <id> rows <n>} after each batch, {@code failed <message>} or {@code stopped}. A line {@code
 * stop} on stdin stops the query.
 *
 * <p>Arguments: proxy URL, queue, consumer, output static table, checkpoint location.
 */
public final class StaticSinkDriverMain {

  static final String PREFIX = "static-sink-driver: ";

  private StaticSinkDriverMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2,4]")
            .appName("ytstream-static-sink-driver")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config(YtSettings.PROXY, args[0])
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
    StreamingQuery q = start(spark, args[1], args[2], args[3], args[4]);
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
                // Reported from the query's exception below.
              }
            },
            "static-sink-driver-stdin");
    stopper.setDaemon(true);
    stopper.start();
    try {
      q.awaitTermination();
      out.println(PREFIX + "stopped");
    } catch (StreamingQueryException e) {
      out.println(PREFIX + "failed " + String.valueOf(e.getMessage()).replace('\n', ' '));
    }
    spark.stop();
    System.exit(0);
  }

  /** The job: the queue, read through the consumer, streamed into the static table. */
  static StreamingQuery start(
      SparkSession spark, String queue, String consumer, String out, String checkpoint)
      throws java.util.concurrent.TimeoutException {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", "200")
        .load(queue)
        .writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", checkpoint)
        .trigger(Trigger.ProcessingTime(0))
        .start();
  }
}
