package io.ytstream.simulation;

import java.util.Arrays;

/**
 * Counts the events of a run and tells when a scheduled fault fires. Every kind has its own
 * counter, so the same schedule fires at the same places in every replay.
 */
final class FaultClock {

  private final int[][] at;
  private final int[][] args;
  private final int[] counters;
  private final long[] fired;

  FaultClock(FaultSchedule schedule) {
    int kinds = SimFault.values().length;
    at = new int[kinds][];
    args = new int[kinds][];
    counters = new int[kinds];
    fired = new long[kinds];
    for (SimFault kind : SimFault.values()) {
      int n = 0;
      for (FaultSchedule.Fault f : schedule.faults()) {
        if (f.kind() == kind) {
          n++;
        }
      }
      at[kind.ordinal()] = new int[n];
      args[kind.ordinal()] = new int[n];
      int i = 0;
      for (FaultSchedule.Fault f : schedule.faults()) {
        if (f.kind() == kind) {
          at[kind.ordinal()][i] = f.at();
          args[kind.ordinal()][i] = f.arg();
          i++;
        }
      }
    }
  }

  /**
   * Counts one occurrence of {@code kind}'s event; returns the fault's arg (>= 0) when one fires
   * here, else -1.
   */
  int tick(SimFault kind) {
    int k = kind.ordinal();
    int occurrence = counters[k]++;
    int[] a = at[k];
    if (a.length == 0) {
      return -1;
    }
    int i = Arrays.binarySearch(a, occurrence);
    if (i < 0) {
      return -1;
    }
    fired[k]++;
    return args[k][i];
  }

  boolean fires(SimFault kind) {
    return tick(kind) >= 0;
  }

  /** Counts a run-level fault as fired. */
  void markFired(SimFault kind) {
    fired[kind.ordinal()]++;
  }

  long fired(SimFault kind) {
    return fired[kind.ordinal()];
  }
}
