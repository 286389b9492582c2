package io.ytstream.connector.job;

import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.col;

import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;

/**
 * A user's long-running streaming job, as sent to a Spark cluster with {@code spark-submit --jars
 * spark-connector.jar}: reads a queue with {@code format("yt")} and writes it in one delivery mode
 * until a stop file appears, then drains and stops. Prints {@code job: key=value} lines.
 *
 * <p>Arguments: mode ({@code at-least-once}, {@code transactional}, {@code idempotent}, {@code
 * producer}, {@code real-time}), queue, consumer, output, checkpoint location, stop file, and for
 * {@code producer} the queue producer's path.
 */
public final class QueueStreamJob {

  private static final long ROW_MILLIS = 40;

  private QueueStreamJob() {}

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String queue = args[1];
    String consumer = args[2];
    String output = args[3];
    String checkpoint = args[4];
    Path stopFile = Path.of(args[5]);
    boolean realTime = mode.equals("real-time");
    SparkSession spark = SparkSession.builder().appName("ytstream-" + mode).getOrCreate();
    System.out.println("job: application=" + spark.sparkContext().applicationId());
    System.out.println("job: spark.version=" + spark.version());
    spark
        .udf()
        .register(
            "enrich",
            (UDF1<String, String>)
                payload -> {
                  Thread.sleep(ROW_MILLIS);
                  return payload;
                },
            DataTypes.StringType);
    spark
        .conf()
        .set("spark.yt.streaming.transactional", Boolean.toString(mode.equals("transactional")));
    // Several write requests per task, so that a killed executor can leave a batch half written.
    spark.conf().set("spark.yt.write.dynBatchSize", "5");
    Dataset<Row> rows =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .option("max_rows_per_partition", "20")
            .option(
                "include_service_columns", Boolean.toString(mode.equals("idempotent") || realTime))
            .load(queue)
            // A per-row step that takes a while (an enrichment call, say): tasks last long enough
            // for an executor to die in the middle of one.
            .withColumn("payload", call_udf("enrich", col("payload")));
    StreamingQuery query;
    if (realTime) {
      spark.conf().set("spark.sql.streaming.realTimeMode.minBatchDuration", "1000");
      query =
          rows.writeStream()
              .foreach(YtExactlyOnceForeachWriter.builder().path(output).build())
              .outputMode("update")
              // Spark's default progress tracking: on 4.3 asynchronous for this stateless query
              .option("checkpointLocation", checkpoint)
              .trigger(Trigger.RealTime("2 seconds"))
              .start();
    } else {
      DataStreamWriter<Row> writer = rows.writeStream().format("yt").option("path", output);
      if (mode.equals("producer")) {
        writer = writer.option("producer_path", args[6]);
      }
      query =
          writer
              .option("checkpointLocation", checkpoint)
              .trigger(Trigger.ProcessingTime(500))
              .start();
    }
    System.out.println("job: query started");
    while (!Files.exists(stopFile)) {
      if (query.awaitTermination(250)) {
        throw new IllegalStateException("the query ended before it was asked to");
      }
    }
    if (!realTime) {
      query.processAllAvailable();
    }
    query.stop();
    System.out.println("job: stopped");
    spark.stop();
  }
}
