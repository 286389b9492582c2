package io.ytstream.spark.config;

import io.ytstream.core.plan.TaskSplit;
import java.util.Optional;

/**
 * Tells the {@code yt} sink that a {@code yt} source of the same query splits its partition ranges
 * into tasks ({@code min_tasks}, {@code max_rows_per_task}), so the producer sink can refuse it
 * before the first batch writes a row.
 *
 * <p>Spark creates a query's sources on the query's own stream execution thread (a new thread for
 * every query run), before it plans any batch, and plans the sink's write on that thread for each
 * batch; a mark on that thread reaches the sink, which Spark hands no other sign of the source's
 * options. A query that reads the yt source through a thread Spark does not use for planning (none
 * in Spark 4.1 and 4.2) would not be refused.
 */
public final class SplitSourceQueries {

  private static final ThreadLocal<TaskSplit> SPLIT = new ThreadLocal<>();

  private SplitSourceQueries() {}

  /** Marks this query's thread when {@code split} may cut ranges. */
  public static void markThisQueryThread(TaskSplit split) {
    if (split.mayCutRanges()) {
      SPLIT.set(split);
    }
  }

  /** The split of a yt source of the query planned on this thread, if one splits. */
  public static Optional<TaskSplit> splitOfThisQuery() {
    return Optional.ofNullable(SPLIT.get());
  }
}
