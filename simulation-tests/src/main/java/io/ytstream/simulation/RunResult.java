package io.ytstream.simulation;

import io.ytstream.simulation.check.Violation;
import java.util.List;

/**
 * What one seed did and found, in either mode; {@code skippedPushRows} counts the rows of answered
 * producer pushes that the cluster skipped as already written (producer replays, deduplicated). The
 * {@code stoppedOn...} flags and {@code reportedLostRows} are Real-time Mode's (false and 0 in
 * micro-batch runs): why its query stopped for good, and the rows its tasks reported lost.
 */
record RunResult(
    long seed,
    String workload,
    FaultSchedule schedule,
    List<Violation> violations,
    long batches,
    long[] faultsFired,
    long rowsIn,
    long rowsOut,
    long lost,
    long duplicated,
    long skippedPushRows,
    long queryFailures,
    long steps,
    String trace,
    boolean stoppedOnDamagedCheckpoint,
    boolean stoppedOnDataLoss,
    boolean stoppedOnUntrustedPositions,
    long reportedLostRows) {

  boolean failed() {
    return !violations.isEmpty();
  }

  long fired(SimFault kind) {
    return faultsFired[kind.ordinal()];
  }
}
