package io.ytstream.simulation;

import java.util.List;

/** What one seed did and found. */
record RunResult(
    long seed,
    String workload,
    FaultSchedule schedule,
    List<Verifier.Violation> violations,
    long batches,
    long[] faultsFired,
    long rowsIn,
    long rowsOut,
    long lost,
    long duplicated,
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
