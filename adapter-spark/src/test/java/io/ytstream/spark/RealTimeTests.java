package io.ytstream.spark;

import io.ytstream.spark.realtime.RealTimeQueries;
import org.apache.spark.sql.SparkSession;

/** Settings shared by the Real-time Mode tests: short batches keep the tests quick. */
final class RealTimeTests {

  static final String MIN_BATCH = "spark.sql.streaming.realTimeMode.minBatchDuration";
  static final String BATCH = "1 second";

  private RealTimeTests() {}

  static void shortBatches(SparkSession spark) {
    spark.conf().set(MIN_BATCH, "1000");
  }

  static void reset(SparkSession spark) {
    spark.conf().unset(MIN_BATCH);
    spark.conf().unset(RealTimeQueries.ALLOWLIST_CHECK);
  }
}
