package io.ytstream.benchmarks.latency;

import java.io.Serializable;

/**
 * The schedule of {@link PacedSource}: row g (over all partitions) is due at {@code startMicros + g
 * * 1e6 / rate}; partition p holds rows {@code p, p + partitions, ...}.
 */
record PacedPlan(String name, int partitions, long rowsPerPartition, double rate, long startMicros)
    implements Serializable {

  /** When row {@code index} of {@code partition} is due, in {@link LatencyClock} microseconds. */
  long dueMicros(int partition, long index) {
    long global = index * partitions + partition;
    return startMicros + (long) (global * 1_000_000.0 / rate);
  }
}
