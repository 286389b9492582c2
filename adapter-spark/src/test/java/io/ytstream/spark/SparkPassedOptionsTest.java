package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * What Spark 4.2 itself puts into the options of a source or sink ({@code path} from {@code
 * load(path)} and {@code start(path)}, {@code checkpointLocation}, {@code queryName}) is accepted
 * by the strict option check, in any case.
 */
class SparkPassedOptionsTest {

  private final SparkSession spark = SharedSpark.get();

  @Test
  void pathCheckpointLocationAndQueryNameReachTheSourceAndSinkAndAreAccepted() throws Exception {
    TestCluster c = TestCluster.create(spark, "sparkopts");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 5);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("CONSUMER_PATH", "//c")
            .option("path", "//q")
            .load()
            .writeStream()
            .format("yt")
            .queryName("spark_passed_options")
            .option("checkpointLocation", "yt:///ckpt/sparkopts")
            .trigger(Trigger.AvailableNow())
            .start("//out");
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    assertEquals(new ArrayList<>(TestCluster.range(0, 5)), c.ids("//out"));
  }
}
