package io.ytstream.spark.realtime;

import io.ytstream.application.Interruptions;
import io.ytstream.core.model.PartitionId;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import org.apache.spark.SparkContext;

/**
 * Real-time Mode runs each task for the whole batch, so every task needs a task slot at once. A
 * task reads one queue partition, or up to {@code real_time_partitions_per_task} of them. With
 * fewer slots than tasks Spark starts what fits and leaves the other tasks' partitions unread
 * without a word; this check fails the query instead, naming the numbers and the fixes.
 *
 * <p>The slot count is Spark's own {@code SparkContext.maxNumConcurrentTasks} for the default
 * resource profile (executor cores / {@code spark.task.cpus}, what barrier stages use). On a
 * cluster, executors may still be registering when the query starts, so the check waits up to
 * {@link #REGISTRATION_WAIT_MS} for enough slots; in local mode the count is fixed and it does not
 * wait.
 *
 * <p>A union of several {@code yt} streams runs all their tasks at once, so the check counts the
 * tasks of every {@code yt} source of the query together: Spark plans a query's sources on its
 * stream execution thread (a new thread for each run of the query), so each source records its
 * tasks there and checks the sum. Other sources' tasks (not ours) are not counted.
 *
 * <p>Spark 4.3 runs stateful Real-time queries through a pipelined shuffle: the stateful stage's
 * tasks ({@code spark.sql.shuffle.partitions} per shuffle) run beside the source's, and Spark
 * itself refuses a pipelined group that does not fit ({@code
 * CONCURRENT_SCHEDULER_INSUFFICIENT_SLOT}, naming the tasks and the free slots). A source cannot
 * see whether the query shuffles after it, so this check counts the source's tasks only and steps
 * aside for the rest: when the source's tasks fit, Spark's own check is the one message; when they
 * do not, this one is, and on Spark 4.3 its fix counts one shuffle's tasks too, so that following
 * it does not run into Spark's check next.
 */
public final class RealTimeSlots {

  public static final long REGISTRATION_WAIT_MS = 30_000;
  private static final long POLL_MS = 250;
  static final String OPTION = "real_time_partitions_per_task";

  /** One source's tasks (each its partitions) and its partitions per task. */
  record SourceTasks(List<List<PartitionId>> tasks, int perTask) {
    SourceTasks {
      tasks = tasks.stream().map(List::copyOf).toList();
    }

    int partitions() {
      return tasks.stream().mapToInt(List::size).sum();
    }
  }

  // Per query run (its stream execution thread): each yt source's tasks, in planning order.
  // No explicit hand-off exists: Spark builds each source (Scan.toMicroBatchStream) with no view
  // of the query's other sources.
  private static final ThreadLocal<Map<Object, SourceTasks>> SOURCES_OF_THIS_QUERY =
      ThreadLocal.withInitial(LinkedHashMap::new);

  private RealTimeSlots() {}

  public static IntSupplier of(SparkContext sc) {
    return () -> sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
  }

  /**
   * The tasks one shuffle adds to a pipelined stage group on this Spark ({@code
   * spark.sql.shuffle.partitions} on 4.3 and later), or 0 where Real-time Mode has no stateful
   * queries (4.1, 4.2).
   */
  public static int pipelinedShuffleTasks(SparkContext sc, String shufflePartitions) {
    String[] v = sc.version().split("[.-]");
    boolean pipelined =
        Integer.parseInt(v[0]) > 4 || (Integer.parseInt(v[0]) == 4 && Integer.parseInt(v[1]) >= 3);
    if (!pipelined || shufflePartitions == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(shufflePartitions.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  public static boolean fixed(SparkContext sc) {
    return sc.master().startsWith("local");
  }

  /**
   * Records {@code source}'s tasks for the query planned on this thread (replacing what it recorded
   * before) and checks the tasks of all the query's {@code yt} sources together.
   *
   * @param tasks each task's partitions
   * @param perTask the source's {@code real_time_partitions_per_task}
   */
  public static void checkQuery(
      Object source,
      List<? extends Collection<PartitionId>> tasks,
      int perTask,
      IntSupplier slots,
      long waitMs) {
    checkQuery(source, tasks, perTask, slots, waitMs, 0);
  }

  /**
   * As {@link #checkQuery(Object, List, int, IntSupplier, long)}; {@code shuffleTasks} (from {@link
   * #pipelinedShuffleTasks}) is what the message's fix adds for a stateful query.
   */
  public static void checkQuery(
      Object source,
      List<? extends Collection<PartitionId>> tasks,
      int perTask,
      IntSupplier slots,
      long waitMs,
      int shuffleTasks) {
    Map<Object, SourceTasks> sources = SOURCES_OF_THIS_QUERY.get();
    sources.put(source, new SourceTasks(tasks.stream().map(t -> List.copyOf(t)).toList(), perTask));
    check(List.copyOf(sources.values()), slots, waitMs, shuffleTasks);
  }

  /** One task per partition: the check as without {@code real_time_partitions_per_task}. */
  static void check(Collection<PartitionId> partitions, IntSupplier slots, long waitMs) {
    check(List.of(new SourceTasks(partitions.stream().map(List::of).toList(), 1)), slots, waitMs);
  }

  /**
   * Fails unless {@code slots} reaches the number of tasks, waiting up to {@code waitMs} for it to
   * grow.
   */
  static void check(List<SourceTasks> sources, IntSupplier slots, long waitMs) {
    check(sources, slots, waitMs, 0);
  }

  static void check(List<SourceTasks> sources, IntSupplier slots, long waitMs, int shuffleTasks) {
    int tasks = sources.stream().mapToInt(s -> s.tasks().size()).sum();
    long deadline = System.currentTimeMillis() + waitMs;
    int have = slots.getAsInt();
    while (have < tasks && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        throw Interruptions.stopped("waiting for task slots", e);
      }
      have = slots.getAsInt();
    }
    if (have < tasks) {
      throw new IllegalStateException(message(sources, have, shuffleTasks));
    }
  }

  static String message(List<SourceTasks> sources, int slots) {
    return message(sources, slots, 0);
  }

  static String message(List<SourceTasks> sources, int slots, int shuffleTasks) {
    Map<String, Integer> perQueue = new TreeMap<>();
    int partitions = 0;
    int tasks = 0;
    TreeSet<Integer> perTask = new TreeSet<>();
    for (SourceTasks s : sources) {
      s.tasks()
          .forEach(t -> t.forEach(p -> perQueue.merge(p.queue().path().value(), 1, Integer::sum)));
      partitions += s.partitions();
      tasks += s.tasks().size();
      perTask.add(s.perTask());
    }
    StringBuilder m = new StringBuilder();
    m.append("Real-time Mode needs a task slot for each task of the batch, but the query reads ")
        .append(partitions)
        .append(" partitions ")
        .append(perQueue)
        .append(" in ")
        .append(tasks)
        .append(" tasks (")
        .append(OPTION)
        .append(perTask.size() == 1 ? "=" + perTask.first() : " per source: " + perTask)
        .append(") and Spark has ")
        .append(slots)
        .append(" task slots (executor cores / spark.task.cpus): Spark would leave ")
        .append(tasks - slots)
        .append(" tasks' partitions unread. Give the application at least ")
        .append(tasks)
        .append(" slots (e.g. master local[")
        .append(tasks)
        .append("], or more executors or spark.executor.cores)");
    int fits = fewestPerTaskThatFits(sources, slots);
    if (fits > 0) {
      m.append(", or let each task read more partitions: option ")
          .append(OPTION)
          .append("=")
          .append(fits)
          .append(" runs ")
          .append(tasksAt(sources, fits))
          .append(" tasks");
    }
    m.append(", or read fewer partitions, or use a micro-batch trigger");
    if (shuffleTasks > 0) {
      m.append(". A stateful query (groupBy, dropDuplicates, transformWithState) runs each")
          .append(
              " shuffle's tasks at the same time as the source's: spark.sql.shuffle.partitions=")
          .append(shuffleTasks)
          .append(" more slots per shuffle, ")
          .append(tasks + shuffleTasks)
          .append(" in all with one");
    }
    return m.toString();
  }

  /** The smallest partitions per task (same for every source) that fits, or 0 if none does. */
  private static int fewestPerTaskThatFits(List<SourceTasks> sources, int slots) {
    int most = sources.stream().mapToInt(SourceTasks::partitions).max().orElse(0);
    for (int k = 1; k <= most; k++) {
      if (tasksAt(sources, k) <= slots) {
        return k;
      }
    }
    return 0;
  }

  private static int tasksAt(List<SourceTasks> sources, int perTask) {
    int tasks = 0;
    for (SourceTasks s : sources) {
      tasks += (s.partitions() + perTask - 1) / perTask;
    }
    return tasks;
  }
}
