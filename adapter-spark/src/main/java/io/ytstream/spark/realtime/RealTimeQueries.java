package io.ytstream.spark.realtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the {@code yt} sink that it is being planned for a Real-time Mode query. Spark refuses the
 * sink in that mode at {@code start()} (STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST,
 * before any ytstream code knows the trigger); only with {@value #ALLOWLIST_CHECK}{@code =false}
 * does the sink get planned, and then it warns that its rows become visible at batch boundaries and
 * names the writers to use instead, or, in transactional mode, fails the query before its first
 * batch.
 *
 * <p>Spark calls the source's {@code prepareForRealTimeMode} and later plans the sink on the same
 * thread, the query's own stream execution thread (a new thread for every query run), so a mark on
 * that thread reaches the sink: Spark hands the sink no other sign of the trigger. Only a {@code
 * yt} source marks the thread; a real-time query that reads another source into a transactional
 * {@code yt} sink is not refused here and fails at its first commit instead.
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

  /**
   * When the yt sink is planned for a real-time query (Spark's allowlist check is off): refuses the
   * transactional sink, warns about the others.
   *
   * <p>The transactional commit needs the batch's ranges, and Real-time Mode knows them only after
   * the sink committed: Spark merges the tasks' end offsets ({@code mergeOffsets}) and writes
   * {@code offsets/N} in {@code markMicroBatchEnd}, after {@code StreamingWrite.commit}. So the
   * query fails here, before its first batch writes a row, instead of at its first commit.
   *
   * @throws IllegalArgumentException for a transactional sink in a real-time query
   */
  public static void checkSink(String output, boolean transactional) {
    if (!REAL_TIME.get()) {
      return;
    }
    if (transactional) {
      throw new IllegalArgumentException(transactionalSinkMessage(output));
    }
    LOG.warn(sinkMessage(output));
  }

  /**
   * A stream into a static table records each batch with its end offsets, which Real-time Mode
   * writes only after the sink's commit (as for the transactional sink).
   *
   * @throws IllegalArgumentException in a real-time query
   */
  public static void checkStaticTableSink(String output) {
    if (REAL_TIME.get()) {
      throw new IllegalArgumentException(
          "writeStream.format(\"yt\") (option path = "
              + output
              + ") is a static table (@dynamic=%false), which cannot be written in Real-time"
              + " Mode: each batch is recorded in the table with its end offsets in the"
              + " transaction that appends its rows, and Real-time Mode knows the end only after"
              + " the sink committed. Use a micro-batch trigger (e.g."
              + " trigger(Trigger.ProcessingTime(\"10 seconds\"))), or write a dynamic table");
    }
  }

  static String transactionalSinkMessage(String output) {
    return "writeStream.format(\"yt\") (output "
        + output
        + ") with spark.yt.streaming.transactional=true cannot run in Real-time Mode: the batch"
        + " transaction commits on the driver before Spark knows where the batch's tasks stopped"
        + " (Real-time Mode writes the batch's offsets after the sink's commit), so the commit"
        + " has no ranges to advance the consumer by. For exactly once in Real-time Mode use"
        + " writeStream.foreach(YtExactlyOnceForeachWriter.builder().path(..).build()) with"
        + " include_service_columns=true; or set spark.yt.streaming.transactional=false, or use"
        + " a micro-batch trigger with the transactional sink";
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
