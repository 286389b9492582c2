package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What outlives a driver in one run: the cluster (with the checkpoint store), the fault clock, what
 * the query reported to the outside world (data loss, failures), and the trace.
 */
final class SimContext {

  final Workload workload;
  final SimCluster cluster;
  final FaultClock faults;
  final FaultyPorts io;
  final Mutant mutant;

  /** The cluster's per-tablet row limit of one transaction (0: the default, never reached). */
  final long rowLimit;

  /**
   * The limit the query is told ({@code spark.yt.write.maxRowsPerTabletPerTransaction}): the
   * cluster's, or above it where the user set it higher than the cluster allows.
   */
  final long settingRowLimit;

  private final StringBuilder trace;

  /** Rows the query reported as lost (partition ordinal << 40 | row index). */
  final Set<Long> reportedLost = new HashSet<>();

  Verifier verifier;
  long batchesCommitted;
  long queryFailures;
  boolean failedOnDataLoss;

  /**
   * The sink refused a batch too large for the output's per-tablet row limit (it names the fix).
   */
  boolean failedOnTooLargeBatch;

  /**
   * When set, each driver cuts its batches' ranges into tasks by options drawn from this seed and
   * the driver ({@link Driver#taskSplit}): a restarted query runs a logged batch under other ones.
   */
  OptionalLong taskSplitSeed = OptionalLong.empty();

  /** How the job places its output rows in the output's tablets ({@link TabletChoice}). */
  TabletChoice tabletChoice = TabletChoice.ROUND_ROBIN;

  /** The query refused checkpoint offsets that a re-created queue no longer has. */
  boolean failedOnUntrustedPositions;

  /** The query stopped for good with a reason it reported (the run need not consume every row). */
  boolean stoppedWithReason() {
    return failedOnDataLoss || failedOnTooLargeBatch || failedOnUntrustedPositions;
  }

  SimContext(
      Workload workload,
      SimCluster cluster,
      FaultClock faults,
      Mutant mutant,
      long rowLimit,
      long settingRowLimit,
      boolean tracing) {
    this.workload = workload;
    this.cluster = cluster;
    this.faults = faults;
    this.io = new FaultyPorts(cluster, faults);
    this.mutant = mutant;
    this.rowLimit = rowLimit;
    this.settingRowLimit = settingRowLimit;
    this.trace = tracing ? new StringBuilder() : null;
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

  void reportLoss(PartitionId partition, long fromRow, long toRow) {
    long ordinal = workload.ordinal(partition);
    for (long r = fromRow; r < toRow; r++) {
      if (reportedLost.add(ordinal << 40 | r) && verifier != null) {
        verifier.onReportedLost((int) ordinal, r);
      }
    }
    trace("report data loss " + partition + " [" + fromRow + "," + toRow + ")");
  }

  boolean isReportedLost(int ordinal, long row) {
    return !reportedLost.isEmpty() && reportedLost.contains((long) ordinal << 40 | row);
  }
}
