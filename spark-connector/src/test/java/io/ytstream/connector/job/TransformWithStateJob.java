package io.ytstream.connector.job;

import io.ytstream.spark.writers.YtUpsertForeachWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.streaming.ValueState;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A user's stateful Real-time job (Spark 4.3): a queue read with {@code format("yt")}, grouped by
 * its {@code payload}, through {@code transformWithState} with a {@link RunningCount} per key, and
 * each key's new count upserted by {@link YtUpsertForeachWriter} into a table keyed by {@code key},
 * until a stop file appears. Prints {@code job: key=value} lines.
 *
 * <p>Arguments: queue, consumer, output (sorted by {@code key}), checkpoint location, stop file.
 */
public final class TransformWithStateJob {

  private TransformWithStateJob() {}

  /** Counts the rows of its key in a value state and emits the count after each group of rows. */
  public static final class RunningCount
      extends StatefulProcessor<String, String, Tuple2<String, Long>> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
      count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<Tuple2<String, Long>> handleInputRows(
        String key, scala.collection.Iterator<String> rows, TimerValues timerValues) {
      long n = count.exists() ? count.get() : 0L;
      while (rows.hasNext()) {
        rows.next();
        n++;
      }
      count.update(n);
      List<Tuple2<String, Long>> out = new ArrayList<>();
      out.add(new Tuple2<>(key, n));
      return CollectionConverters.asScala(out.iterator());
    }
  }

  public static void main(String[] args) throws Exception {
    String queue = args[0];
    String consumer = args[1];
    String output = args[2];
    String checkpoint = args[3];
    Path stopFile = Path.of(args[4]);
    SparkSession spark =
        SparkSession.builder().appName("ytstream-transform-with-state").getOrCreate();
    System.out.println("job: spark.version=" + spark.version());
    // One source task (both partitions) and one shuffle partition: the pipelined stages' two tasks
    // fit local[2].
    spark.conf().set("spark.sql.shuffle.partitions", "1");
    spark.conf().set("spark.sql.streaming.realTimeMode.minBatchDuration", "1000");
    Dataset<Row> counts =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .option("real_time_partitions_per_task", "2")
            .load(queue)
            .select("payload")
            .as(Encoders.STRING())
            .groupByKey((MapFunction<String, String>) payload -> payload, Encoders.STRING())
            .transformWithState(
                new RunningCount(),
                TimeMode.None(),
                OutputMode.Update(),
                Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
            .toDF("key", "count");
    StreamingQuery query =
        counts
            .writeStream()
            .foreach(
                YtUpsertForeachWriter.builder().path(output).rowSchema(counts.schema()).build())
            .outputMode("update")
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.RealTime("2 seconds"))
            .start();
    System.out.println("job: query started");
    while (!Files.exists(stopFile)) {
      if (query.awaitTermination(250)) {
        throw new IllegalStateException("the query ended before it was asked to");
      }
    }
    query.stop();
    System.out.println("job: query stopped, exception=" + query.exception().isDefined());
    spark.stop();
  }
}
