package io.ytstream.spark.realtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the {@code yt} sink that it is being planned for a Real-time Mode query. Spark refuses the
 * sink in that mode at {@code start()} (STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST,
 * before any ytstream code knows the trigger); only with {@value #ALLOWLIST_CHECK}{@code =false}
 * does the sink get planned, and then it warns that its rows become visible at batch boundaries and
 * names the writers to use instead.
 *
 * <p>Spark calls the source's {@code prepareForRealTimeMode} and later plans the sink on the same
 * thread, the query's own stream execution thread (a new thread for every query run), so a mark on
 * that thread reaches the sink. It only shapes a log message; nothing about data depends on it.
 */
public final class RealTimeQueries {

  private static final Logger LOG = LoggerFactory.getLogger(RealTimeQueries.class);

  public static final String ALLOWLIST_CHECK = "spark.sql.streaming.realTimeMode.allowlistCheck";

  // No explicit hand-off exists: Spark tells the source of Real-time Mode
  // (SupportsRealTimeMode.prepareForRealTimeMode), never the sink, whose LogicalWriteInfo
  // carries only the query id, schema and options.
  private static final ThreadLocal<Boolean> REAL_TIME = ThreadLocal.withInitial(() -> false);

  private RealTimeQueries() {}

  public static void markThisQueryThread() {
    REAL_TIME.set(true);
  }

  /** Warns when the yt sink is planned for a real-time query (Spark's allowlist check is off). */
  public static void warnIfRealTime(String output) {
    if (REAL_TIME.get()) {
      LOG.warn(sinkMessage(output));
    }
  }

  static String sinkMessage(String output) {
    return "writeStream.format(\"yt\") (output "
        + output
        + ") runs in Real-time Mode only because "
        + ALLOWLIST_CHECK
        + "=false: its rows become visible only at batch boundaries (at-least-once mode: also"
        + " whenever spark.yt.write.dynBatchSize rows have gathered), not row by row. For"
        + " millisecond latency use writeStream.foreach(YtExactlyOnceForeachWriter.builder()..."
        + ".build()), which upserts into a sorted table keyed by source position (exactly once;"
        + " read with include_service_columns=true), or writeStream.foreach("
        + "YtAppendForeachWriter.builder()...build()), which appends to an ordered table (at"
        + " least once)";
  }
}
