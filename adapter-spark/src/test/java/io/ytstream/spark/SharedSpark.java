package io.ytstream.spark;

import org.apache.spark.sql.SparkSession;

/**
 * One SparkSession per test fork (Surefire reuses the fork), no UI. The master is {@code
 * local[2,4]}: two threads, and a failed task attempt is retried up to 4 attempts as on a cluster
 * ({@code local[2]} would end the query at the first task failure, which hides how the sinks behave
 * when Spark retries a task). One SparkContext per JVM, so every test runs with retries.
 */
public final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {}

  public static synchronized SparkSession get() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2,4]")
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
