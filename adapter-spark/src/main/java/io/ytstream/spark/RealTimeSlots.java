package io.ytstream.spark;

import io.ytstream.core.model.PartitionId;
import java.util.Collection;
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
 */
final class RealTimeSlots {

  static final long REGISTRATION_WAIT_MS = 30_000;
  private static final long POLL_MS = 250;

  private RealTimeSlots() {}

  static IntSupplier of(SparkContext sc) {
    return () -> sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
  }

  static boolean fixed(SparkContext sc) {
    return sc.master().startsWith("local");
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
        Thread.currentThread().interrupt();
        break;
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
