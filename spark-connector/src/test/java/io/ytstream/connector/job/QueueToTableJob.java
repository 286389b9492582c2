package io.ytstream.connector.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

/**
 * A user's job as {@code spark-submit --jars spark-connector.jar --class ... job.jar} runs it: one
 * AvailableNow query from a queue to a table. It knows Spark's API only; the source and sink are
 * found by name. Prints {@code job: key=value} lines for the test that submits it.
 *
 * <p>Arguments: format (the short name {@code yt}, or a provider's class name), queue, consumer,
 * output table, checkpoint location, then optionally {@code select:<SQL expression>} (the written
 * columns, in order, by {@code selectExpr}), {@code source:<option>=<value>} (the source's options)
 * and {@code sink:<option>=<value>} (the sink's options), each as often as needed. With a class
 * name it first shows what {@code format("yt")} does.
 */
public final class QueueToTableJob {

  private QueueToTableJob() {}

  public static void main(String[] args) throws Exception {
    String format = args[0];
    String queue = args[1];
    String consumer = args[2];
    String output = args[3];
    String checkpoint = args[4];
    SparkSession spark = SparkSession.builder().appName("queue-to-table").getOrCreate();
    System.out.println("job: spark.version=" + spark.version());
    if (!format.equals("yt")) {
      try {
        spark.readStream().format("yt").option("consumer_path", consumer).load(queue);
        System.out.println("job: short name=resolved");
      } catch (Exception e) {
        System.out.println("job: short name=" + e.getMessage().replace('\n', ' '));
      }
    }
    List<String> columns = new ArrayList<>();
    Map<String, String> sourceOptions = new TreeMap<>();
    Map<String, String> sinkOptions = new TreeMap<>();
    for (int i = 5; i < args.length; i++) {
      if (args[i].startsWith("select:")) {
        columns.add(args[i].substring("select:".length()));
      } else if (args[i].startsWith("source:") && args[i].contains("=")) {
        put(sourceOptions, args[i].substring("source:".length()));
      } else if (args[i].startsWith("sink:") && args[i].contains("=")) {
        put(sinkOptions, args[i].substring("sink:".length()));
      } else {
        throw new IllegalArgumentException(
            "argument "
                + (i + 1)
                + " '"
                + args[i]
                + "': use select:<expr>, source:<option>=<value> or sink:<option>=<value>");
      }
    }
    Dataset<Row> stream =
        spark
            .readStream()
            .format(format)
            .options(sourceOptions)
            .option("consumer_path", consumer)
            .load(queue);
    if (!columns.isEmpty()) {
      stream = stream.selectExpr(columns.toArray(String[]::new));
    }
    StreamingQuery query =
        stream
            .writeStream()
            .format(format)
            .options(sinkOptions)
            .option("path", output)
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .start();
    if (!query.awaitTermination(TimeUnit.MINUTES.toMillis(2))) {
      query.stop();
      throw new IllegalStateException("the AvailableNow query did not end within 2 minutes");
    }
    long rows = 0;
    for (StreamingQueryProgress progress : query.recentProgress()) {
      rows += progress.numInputRows();
    }
    System.out.println("job: input rows=" + rows);
    Class<?> provider =
        Class.forName(
            "io.ytstream.spark.YtDataSource",
            false,
            Thread.currentThread().getContextClassLoader());
    System.out.println(
        "job: provider from=" + provider.getProtectionDomain().getCodeSource().getLocation());
    spark.stop();
  }

  /** {@code <option>=<value>}, split at the first {@code =}. */
  private static void put(Map<String, String> options, String option) {
    options.put(
        option.substring(0, option.indexOf('=')), option.substring(option.indexOf('=') + 1));
  }
}
