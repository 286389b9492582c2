package io.ytstream.core.plan;

/** What to do when a partition's next offset has already been trimmed from the queue. */
public enum DataLossPolicy {
  /** Stop the query with {@link DataLossException} (the default: loss is never silent). */
  FAIL,
  /** Skip ahead to the first surviving row and report the lost rows in the plan. */
  SKIP_AND_REPORT
}
