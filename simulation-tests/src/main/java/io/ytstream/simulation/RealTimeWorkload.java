package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.DataLossPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a Real-time Mode seed runs: one queue of 1–6 partitions (and the 1–2 a reshard adds) read by
 * real-time tasks of 1–3 partitions each ({@code real_time_partitions_per_task}), pulls of 1–5
 * rows, a writer that buffers 1–6 rows and flushes on a timer every few steps (or writes every row
 * at once), batches whose tasks run 3–12 steps before Spark's deadline, and an output of 1–3
 * tablets (append and producer writers) or 1–3 shuffle partitions (the stateful query).
 */
record RealTimeWorkload(
    long seed,
    RealTimeMode mode,
    QueueId queue,
    List<PartitionId> partitions,
    int initialPartitions,
    int partitionsPerTask,
    int pullRows,
    int maxBufferedRows,
    int flushEverySteps,
    int taskSteps,
    int outputTablets,
    int produceSteps) {

  static RealTimeWorkload forSeed(long seed, RealTimeMode mode, int partitionsOrZero) {
    SplittableRandom random = new SplittableRandom(seed * 0x2545F4914F6CDD1DL + 29);
    int n = partitionsOrZero > 0 ? partitionsOrZero : 1 + random.nextInt(6);
    QueueId queue = QueueId.of("primary", "//sim/queue0");
    List<PartitionId> partitions = new ArrayList<>();
    // The partitions a RESHARD fault adds (listed from the start, so the checker knows them; no
    // rows before the reshard), from a stream of their own.
    int added = 1 + new SplittableRandom(seed * 31 + 5).nextInt(2);
    for (int i = 0; i < n + added; i++) {
      partitions.add(new PartitionId(queue, i));
    }
    int perTask = 1 + random.nextInt(3);
    int pull = 1 + random.nextInt(5);
    int buffered = 1 + random.nextInt(6);
    // 0: no flush interval, every row is written at once (flushInterval(0) on the builder).
    int flushEvery = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(4);
    int taskSteps = 3 + random.nextInt(10);
    int tablets = mode == RealTimeMode.UPSERT ? 1 : 1 + random.nextInt(3);
    int produce = 150 + random.nextInt(250);
    return new RealTimeWorkload(
        seed,
        mode,
        queue,
        List.copyOf(partitions),
        n,
        perTask,
        pull,
        buffered,
        flushEvery,
        taskSteps,
        tablets,
        produce);
  }

  /**
   * {@code fail_on_data_loss}: true (the query fails, naming the trimmed rows) in half the seeds,
   * false (the task skips them and reports them) in the other half, from a stream of its own.
   */
  DataLossPolicy dataLossPolicy() {
    return new SplittableRandom(seed * 131 + 17).nextBoolean()
        ? DataLossPolicy.FAIL
        : DataLossPolicy.SKIP_AND_REPORT;
  }

  int ordinal(PartitionId p) {
    return partitions.indexOf(p);
  }

  @Override
  public String toString() {
    return mode.cliName()
        + " partitions="
        + initialPartitions
        + "(+"
        + (partitions.size() - initialPartitions)
        + " on reshard)"
        + " perTask="
        + partitionsPerTask
        + " pull="
        + pullRows
        + " buffer="
        + maxBufferedRows
        + " flushEvery="
        + flushEverySteps
        + " taskSteps="
        + taskSteps
        + " outputTablets="
        + outputTablets
        + " produceSteps="
        + produceSteps
        + " dataLoss="
        + dataLossPolicy();
  }
}
