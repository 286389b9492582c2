package io.ytstream.simulation;

import io.ytstream.simulation.check.Violation;
import java.util.List;

/**
 * What one seed did and found; {@code skippedPushRows} counts the rows of answered producer pushes
 * that the cluster skipped as already written (producer mode's replays, deduplicated).
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
    String trace) {

  boolean failed() {
    return !violations.isEmpty();
  }

  long fired(SimFault kind) {
    return faultsFired[kind.ordinal()];
  }
}
