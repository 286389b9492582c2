package io.ytstream.benchmarks.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.launcher.JavaModuleOptions;
import org.apache.spark.sql.SparkSession;

/** The Spark session of the harnesses, and the JVM options a child JVM running Spark needs. */
final class BenchSession {

  private BenchSession() {}

  /**
   * {@code local[2]} (the machine's two cores), no UI, loopback, progress reports kept for 1,000
   * batches so the harnesses can read every batch of a query.
   */
  static SparkSession getOrCreate() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("ytstream-spark-benchmarks")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.sql.streaming.numRecentProgressUpdates", "1000")
        .getOrCreate();
  }

  /** Spark's launcher list ({@code --add-opens ...}), which Kryo needs on Java 17. */
  static List<String> moduleOptions() {
    return new ArrayList<>(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
  }
}
