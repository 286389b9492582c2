package io.ytstream.connector.job;

import java.util.concurrent.TimeUnit;
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
 * output table, checkpoint location. With a class name it first shows what {@code format("yt")}
 * does.
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
    StreamingQuery query =
        spark
            .readStream()
            .format(format)
            .option("consumer_path", consumer)
            .load(queue)
            .writeStream()
            .format(format)
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
}
