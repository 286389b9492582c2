package io.ytstream.spark;

import org.apache.spark.sql.SparkSession;

/** One SparkSession per test fork (Surefire reuses the fork), local[2], no UI. */
final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {}

  static synchronized SparkSession get() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("ytstream-adapter-spark-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.sql.streaming.minBatchesToRetain", "100")
              .config("spark.sql.adaptive.enabled", "false")
              .getOrCreate();
    }
    return session;
  }
}
