package io.ytstream.spark.realtime;

import io.ytstream.application.Interruptions;
import io.ytstream.core.model.PartitionId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntSupplier;
import org.apache.spark.SparkContext;

/**
 * Real-time Mode runs one long task per queue partition for the whole batch, so every partition
 * needs a task slot at once. With fewer slots Spark starts what fits and leaves the other
 * partitions unread without a word; this check fails the query instead, naming both numbers.
 *
 * <p>The slot count is Spark's own {@code SparkContext.maxNumConcurrentTasks} for the default
 * resource profile (executor cores / {@code spark.task.cpus}, what barrier stages use). On a
 * cluster, executors may still be registering when the query starts, so the check waits up to
 * {@link #REGISTRATION_WAIT_MS} for enough slots; in local mode the count is fixed and it does not
 * wait.
 *
 * <p>A union of several {@code yt} streams runs all their tasks at once, so the check counts the
 * partitions of every {@code yt} source of the query together: Spark plans a query's sources on its
 * stream execution thread (a new thread for each run of the query), so each source records its
 * partitions there and checks the sum. Other sources' tasks (not ours) are not counted.
 */
public final class RealTimeSlots {

  public static final long REGISTRATION_WAIT_MS = 30_000;
  private static final long POLL_MS = 250;

  // Per query run (its stream execution thread): each yt source's partitions, in planning order.
  // No explicit hand-off exists: Spark builds each source (Scan.toMicroBatchStream) with no view
  // of the query's other sources.
  private static final ThreadLocal<Map<Object, List<PartitionId>>> SOURCES_OF_THIS_QUERY =
      ThreadLocal.withInitial(LinkedHashMap::new);

  private RealTimeSlots() {}

  public static IntSupplier of(SparkContext sc) {
    return () -> sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
  }

  public static boolean fixed(SparkContext sc) {
    return sc.master().startsWith("local");
  }

  /**
   * Records {@code source}'s partitions for the query planned on this thread (replacing what it
   * recorded before) and checks the partitions of all the query's {@code yt} sources together.
   */
  public static void checkQuery(
      Object source, Collection<PartitionId> partitions, IntSupplier slots, long waitMs) {
    Map<Object, List<PartitionId>> sources = SOURCES_OF_THIS_QUERY.get();
    sources.put(source, List.copyOf(partitions));
    List<PartitionId> all = new ArrayList<>();
    sources.values().forEach(all::addAll);
    check(all, slots, waitMs);
  }

  /**
   * Fails unless {@code slots} reaches the number of partitions, waiting up to {@code waitMs} for
   * it to grow.
   */
  static void check(Collection<PartitionId> partitions, IntSupplier slots, long waitMs) {
    long deadline = System.currentTimeMillis() + waitMs;
    int have = slots.getAsInt();
    while (have < partitions.size() && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        throw Interruptions.stopped("waiting for task slots", e);
      }
      have = slots.getAsInt();
    }
    if (have < partitions.size()) {
      throw new IllegalStateException(message(partitions, have));
    }
  }

  static String message(Collection<PartitionId> partitions, int slots) {
    Map<String, Integer> perQueue = new TreeMap<>();
    partitions.forEach(p -> perQueue.merge(p.queue().path().value(), 1, Integer::sum));
    return "Real-time Mode needs one task slot per queue partition, but the query reads "
        + partitions.size()
        + " partitions "
        + perQueue
        + " and Spark has "
        + slots
        + " task slots (executor cores / spark.task.cpus): Spark would leave "
        + (partitions.size() - slots)
        + " partitions unread. Give the application at least "
        + partitions.size()
        + " slots (e.g. master local["
        + partitions.size()
        + "], or more executors or spark.executor.cores), or read fewer partitions, or use a"
        + " micro-batch trigger";
  }
}
