package io.ytstream.simulation;

import io.ytstream.application.realtime.RowsCarriedToNextTask;
import io.ytstream.core.plan.DataLoss;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What outlives a real-time driver in one run: the cluster (with the checkpoint store), the fault
 * clock and the faulty ports, the executor's carried rows, the checker, and the trace.
 */
final class RealTimeContext {

  final RealTimeWorkload workload;
  final SimCluster cluster;
  final FaultClock faults;
  final FaultyPorts io;
  final RowsCarriedToNextTask carried = new RowsCarriedToNextTask();

  /**
   * The stateful query's state store in the checkpoint, by version (batch id + 1) and the run that
   * wrote it ({@code "5/run-3"}): Spark's checkpoint format v2, where each run writes versions of
   * its own and the commit log names the one to restore.
   */
  final TreeMap<String, SortedMap<Long, Long>> stateVersions = new TreeMap<>();

  private final StringBuilder trace;

  RealTimeOutput checker;
  long batchesCommitted;
  long queryFailures;

  /**
   * The query stopped for good because two runs of it damaged Spark's checkpoint (a stalled run
   * wrote {@code commits/N} after a newer one purged {@code offsets/N}); reported, not stuck.
   */
  boolean stoppedOnDamagedCheckpoint;

  /** The trimmed rows the tasks skipped and reported ({@code fail_on_data_loss=false}). */
  final List<DataLoss> reportedLost = new ArrayList<>();

  /** The live driver's first query failure in the run, or null. */
  String firstFailure;

  /** The query stopped for good, failing for data loss under {@code fail_on_data_loss=true}. */
  boolean stoppedOnDataLoss;

  /** The query stopped for good because its queue no longer fits the checkpoint (re-created). */
  boolean stoppedOnUntrustedPositions;

  /** Whether row {@code row} of {@code ordinal}'s partition was reported lost by a task. */
  boolean isReportedLost(int ordinal, long row) {
    for (DataLoss l : reportedLost) {
      if (workload.ordinal(l.partition()) == ordinal
          && row >= l.requestedOffset()
          && row < l.firstAvailableRow()) {
        return true;
      }
    }
    return false;
  }

  RealTimeContext(
      RealTimeWorkload workload, SimCluster cluster, FaultClock faults, boolean tracing) {
    this.workload = workload;
    this.cluster = cluster;
    this.faults = faults;
    this.io = new FaultyPorts(cluster, faults);
    this.trace = tracing ? new StringBuilder() : null;
  }

  long now() {
    return cluster.ports().time().nowMillis();
  }

  boolean tracing() {
    return trace != null;
  }

  void trace(String line) {
    if (trace != null) {
      trace.append(line).append('\n');
    }
  }

  String traceText() {
    return trace == null ? "" : trace.toString();
  }
}
