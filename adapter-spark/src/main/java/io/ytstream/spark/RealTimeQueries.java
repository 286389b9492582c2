package io.ytstream.spark;

import org.apache.spark.sql.SparkSession;

/**
 * Tells the {@code yt} sink that it is being planned for a Real-time Mode query, so it can explain
 * what to use instead before Spark's allowlist rejects it with a generic error.
 *
 * <p>Spark calls the source's {@code prepareForRealTimeMode} and later plans the sink on the same
 * thread, the query's own stream execution thread (a new thread for every query run), so a mark on
 * that thread reaches the sink. It only shapes an error message; nothing about data depends on it.
 */
final class RealTimeQueries {

  static final String ALLOWLIST_CHECK = "spark.sql.streaming.realTimeMode.allowlistCheck";

  private static final ThreadLocal<Boolean> REAL_TIME = ThreadLocal.withInitial(() -> false);

  private RealTimeQueries() {}

  static void markThisQueryThread() {
    REAL_TIME.set(true);
  }

  /**
   * In a real-time query with Spark's allowlist check on, refuses the {@code yt} sink with the
   * alternatives. With the check off the sink runs; its rows become visible at batch boundaries.
   */
  static void checkSink(SparkSession spark, String output) {
    if (!REAL_TIME.get()) {
      return;
    }
    boolean allowlist = !"false".equalsIgnoreCase(spark.conf().get(ALLOWLIST_CHECK, "true").trim());
    if (allowlist) {
      throw new IllegalArgumentException(sinkMessage(output));
    }
  }

  static String sinkMessage(String output) {
    return "writeStream.format(\"yt\") (output "
        + output
        + ") cannot run in Real-time Mode: Spark accepts only its own sinks and ForeachWriter there"
        + " (STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST). Use"
        + " writeStream.foreach(YtExactlyOnceForeachWriter.builder()...build()) to upsert into a"
        + " sorted table keyed by source position (exactly once; read with"
        + " include_service_columns=true), or writeStream.foreach(YtAppendForeachWriter.builder()"
        + "...build()) to append to an ordered table (at least once); or keep format(\"yt\") with"
        + " a micro-batch trigger such as Trigger.ProcessingTime. With "
        + ALLOWLIST_CHECK
        + "=false the yt sink runs, but its rows become visible only at batch boundaries";
  }
}
