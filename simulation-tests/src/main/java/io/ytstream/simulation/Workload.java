package io.ytstream.simulation;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.TriggerLimit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * What one seed runs: queues and partitions, the query, the limits and the rate rows arrive at. All
 * drawn from the seed, so the seed alone names the workload.
 */
record Workload(
    SimMode mode,
    List<QueueId> queues,
    List<PartitionId> partitions,
    QueryKind query,
    long maxRowsPerPartition,
    DataLossPolicy dataLossPolicy,
    int writeChunk,
    int pullLimit,
    int batches,
    int produceSteps,
    int reduceTasks,
    int addedPartitions,
    int outputTablets,
    TriggerLimit trigger,
    boolean availableNow,
    boolean queueTimestamps,
    int spytLoggedBatches) {

  static final ConsumerId CONSUMER = ConsumerId.of("primary", "//sim/consumer");
  static final YPath OUTPUT = YPath.of("//sim/output");
  static final YPath CHECKPOINT = YPath.of("//sim/checkpoint");

  /** Producer mode: the queue producer whose sessions number the pushes into {@link #OUTPUT}. */
  static final YPath PRODUCER = YPath.of("//sim/producer");

  /**
   * @param partitionsOrZero total partitions over all queues (1..16), or 0 to draw it from the seed
   * @param batches roughly how many batches the producer's rows make
   */
  static Workload forSeed(long seed, SimMode mode, int partitionsOrZero, int batches) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 17);
    int total = partitionsOrZero > 0 ? partitionsOrZero : 1 + random.nextInt(16);
    int queueCount = total == 1 ? 1 : 1 + random.nextInt(Math.min(3, total));
    List<QueueId> queues = new ArrayList<>();
    for (int q = 0; q < queueCount; q++) {
      queues.add(QueueId.of("primary", "//sim/queue" + q));
    }
    List<PartitionId> partitions = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      QueueId queue = queues.get(i % queueCount);
      int index = 0;
      for (PartitionId p : partitions) {
        if (p.queue().equals(queue)) {
          index++;
        }
      }
      partitions.add(new PartitionId(queue, index));
    }
    // Partitions the first queue gets when a RESHARD fault fires (listed from the start, so the
    // checker knows them; they hold no rows before the reshard). Drawn from a stream of its own,
    // so the rest of a seed's workload does not depend on it.
    int added = 1 + new SplittableRandom(seed * 31 + 7).nextInt(2);
    int firstQueueCount = 0;
    for (PartitionId p : partitions) {
      if (p.queue().equals(queues.get(0))) {
        firstQueueCount++;
      }
    }
    for (int i = 0; i < added; i++) {
      partitions.add(new PartitionId(queues.get(0), firstQueueCount + i));
    }
    partitions.sort(null);
    QueryKind query =
        switch (mode) {
          case IDEMPOTENT -> random.nextBoolean() ? QueryKind.MAP : QueryKind.FILTER;
          // Static table mode too: the aggregate's checker expects the consumer to move with the
          // output, as only transactional mode's does.
          case AT_LEAST_ONCE, PRODUCER, STATIC_TABLE ->
              new QueryKind[] {QueryKind.MAP, QueryKind.FILTER, QueryKind.FLAT_MAP}
                  [random.nextInt(3)];
          case TRANSACTIONAL -> QueryKind.values()[random.nextInt(QueryKind.values().length)];
        };
    long maxRows = 2 + random.nextInt(11);
    DataLossPolicy policy =
        random.nextBoolean() ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT;
    random.nextInt(4); // a draw no field uses: it keeps the later fields of every seed in place
    int writeChunk = 1 + random.nextInt(5);
    int pullLimit = 1 + random.nextInt(8);
    int reduceTasks = 1 + random.nextInt(2);
    // The output queue of producer mode, the ordered output table of at-least-once mode and the
    // output queue of transactional mode (but an aggregate's table): 1-3 tablets, from streams of
    // their own (as the added partitions).
    int outputTablets =
        mode == SimMode.PRODUCER || mode == SimMode.AT_LEAST_ONCE
            ? 1 + new SplittableRandom(seed * 131 + 3).nextInt(3)
            : mode == SimMode.TRANSACTIONAL && query != QueryKind.AGGREGATE
                ? 1 + new SplittableRandom(seed * 139 + 7).nextInt(3)
                : 1;
    // The trigger's size and kind, from a stream of their own as well: max_rows_per_trigger,
    // min_rows_per_trigger with max_trigger_delay, or neither; and Trigger.AvailableNow runs that
    // a scheduler starts again when they end.
    SplittableRandom triggers = new SplittableRandom(seed * 977 + 11);
    TriggerLimit trigger =
        switch (triggers.nextInt(6)) {
          case 0, 1 ->
              new TriggerLimit(
                  OptionalLong.of(1 + triggers.nextInt(20)),
                  OptionalLong.empty(),
                  TriggerLimit.DEFAULT_MAX_DELAY_MS);
          case 2 ->
              new TriggerLimit(
                  OptionalLong.empty(),
                  OptionalLong.of(2 + triggers.nextInt(10)),
                  50 + triggers.nextInt(400));
          default -> TriggerLimit.none();
        };
    boolean availableNow = triggers.nextInt(6) == 0;
    // A cap by bytes beside a cap or minimum by rows, drawn after every other trigger field so
    // that those stay as they were for every seed: under one row's weight (every batch is one row
    // larger than the cap), or one or two rows' weight (a trigger usually finds a step's few
    // rows), most not a whole number of rows.
    // The queues declare $timestamp in one seed in three, from a stream of its own: seconds
    // behind are measured only then. It makes every queue row 8 bytes heavier.
    boolean queueTimestamps = new SplittableRandom(seed * 197 + 11).nextInt(3) == 0;
    long rowWeight = rowWeight(queueTimestamps);
    if (!trigger.equals(TriggerLimit.none()) && triggers.nextInt(3) == 0) {
      long bytes = rowWeight * triggers.nextInt(3) + 1 + triggers.nextInt((int) rowWeight - 1);
      trigger =
          new TriggerLimit(
              trigger.maxRows(), trigger.minRows(), trigger.maxDelayMs(), OptionalLong.of(bytes));
    }
    // In one seed in four (a stream of its own) SPYT ran the query first: its first batches are
    // logged in SPYT's form, which every later reader of the log converts. Left out of the
    // workload's text: the steps are the same either way, and the recorded traces hold that text.
    SplittableRandom spyt = new SplittableRandom(seed * 211 + 13);
    int spytLogged = spyt.nextInt(4) == 0 ? 1 + spyt.nextInt(6) : 0;
    return new Workload(
        mode,
        List.copyOf(queues),
        List.copyOf(partitions),
        query,
        maxRows,
        policy,
        writeChunk,
        pullLimit,
        batches,
        batches * 6,
        reduceTasks,
        added,
        outputTablets,
        trigger,
        availableNow,
        queueTimestamps,
        spytLogged);
  }

  /**
   * This workload with {@code max_rows_per_partition} lowered so that a batch over every partition
   * writes at most {@code maxRowsPerTablet} rows into each tablet of the output, if the rows spread
   * evenly, as the transactional sink's refusal of a larger batch suggests; at least 1.
   */
  Workload fittingTheOutput(long maxRowsPerTablet) {
    long fits =
        Math.max(
            1,
            maxRowsPerTablet
                * outputTablets
                / ((long) partitions.size() * query.maxRowsPerInputRow()));
    return new Workload(
        mode,
        queues,
        partitions,
        query,
        Math.min(maxRowsPerPartition, fits),
        dataLossPolicy,
        writeChunk,
        pullLimit,
        batches,
        produceSteps,
        reduceTasks,
        addedPartitions,
        outputTablets,
        trigger,
        availableNow,
        queueTimestamps,
        spytLoggedBatches);
  }

  /**
   * A queue row's data weight: 1, three int64 values of 8, and 8 for each system column the queue
   * declares ({@code $cumulative_data_weight} always, so that batches can be capped by bytes;
   * {@code $timestamp} where {@link #queueTimestamps}), each counting its own weight ({@code
   * ordered_dynamic_store.cpp}, {@code WriteRow}).
   */
  long queueRowWeight() {
    return rowWeight(queueTimestamps);
  }

  private static long rowWeight(boolean timestamps) {
    return 1 + 3 * 8 + 8 + (timestamps ? 8 : 0);
  }

  /** The partitions a queue has before any reshard. */
  int initialPartitions(QueueId queue) {
    int n = 0;
    for (PartitionId p : partitions) {
      if (p.queue().equals(queue)) {
        n++;
      }
    }
    return queue.equals(queues.get(0)) ? n - addedPartitions : n;
  }

  /** The ordinal of a partition in {@link #partitions} (which is sorted), or -1. */
  int ordinal(PartitionId partition) {
    int i = Collections.binarySearch(partitions, partition);
    return i >= 0 ? i : -1;
  }

  @Override
  public String toString() {
    return "mode="
        + mode.cliName()
        + " queues="
        + queues.size()
        + " partitions="
        + partitions.size()
        + " query="
        + query
        + " max_rows_per_partition="
        + maxRowsPerPartition
        + " data_loss="
        + dataLossPolicy
        + (trigger.equals(TriggerLimit.none()) ? "" : " trigger=" + trigger)
        + (availableNow ? " available_now" : "");
  }
}
