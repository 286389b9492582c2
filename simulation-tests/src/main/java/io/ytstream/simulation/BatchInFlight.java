package io.ytstream.simulation;

import io.ytstream.application.BatchWriteJob;
import io.ytstream.application.CommitStaticTableSink;
import io.ytstream.application.StaticTableTaskReport;
import io.ytstream.application.WriterReport;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.ports.TabletTransaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The driver-side state of the batch in flight: its offsets, its tasks' progress as Spark's task
 * scheduler keeps it (done, failures, attempts; slots {@code [0, n)} for the map stage and {@code
 * [n, 2n)} for the reduce stage), the commit coordinator's choices, and what the tasks reported. A
 * crash of the driver discards it.
 */
final class BatchInFlight {
  final long id;
  final StreamOffsets start;
  final StreamOffsets end;
  List<TaskAssignment> tasks = List.of();
  YPath tmp;
  boolean commitsWritten;
  TabletTransaction tx;

  /** Static table mode: the batch's master transaction and whether its rows are written. */
  CommitStaticTableSink.OpenBatch staticBatch;

  SimTransactionPinger pinger;
  Optional<StreamOffsets> sourceEnd = Optional.empty();
  boolean[] done;
  int[] failures;
  int[] attempts;
  int[][] authorized;
  WriterReport[] reports;
  StaticTableTaskReport[] staticReports;
  List<TreeMap<Long, Long>> mapOutputs;

  /** The write job's task ends as the driver hears them (the sink's job listener). */
  final BatchWriteJob writeJob = new BatchWriteJob();

  BatchInFlight(long id, StreamOffsets start, StreamOffsets end) {
    this.id = id;
    this.start = start;
    this.end = end;
  }

  /** Spark's {@code planInputPartitions}: the tasks, and the bookkeeping for them. */
  void planTasks(List<TaskAssignment> planned, int reduceTasks) {
    tasks = planned;
    int n = Math.max(tasks.size(), reduceTasks);
    done = new boolean[2 * n];
    failures = new int[2 * n];
    attempts = new int[2 * n];
    authorized = new int[2][n];
    Arrays.fill(authorized[0], -1);
    Arrays.fill(authorized[1], -1);
    reports = new WriterReport[2 * n];
    staticReports = new StaticTableTaskReport[2 * n];
    mapOutputs = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      mapOutputs.add(null);
    }
  }

  /** The bookkeeping slot of a task of a stage (0: map, 1: reduce). */
  int slot(int stage, int task) {
    return stage == 0 ? task : done.length / 2 + task;
  }

  /** Spark's OutputCommitCoordinator: the first attempt to ask may commit, no other. */
  boolean authorize(int stage, int task, int attempt) {
    if (authorized[stage][task] < 0) {
      authorized[stage][task] = attempt;
    }
    return authorized[stage][task] == attempt;
  }

  /** Spark 4.x: an authorized attempt that failed lets another attempt of its task commit. */
  void authorizedAttemptFailed(int stage, int task) {
    authorized[stage][task] = -1;
  }
}
