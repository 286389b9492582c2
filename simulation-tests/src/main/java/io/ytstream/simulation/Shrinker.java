package io.ytstream.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * Delta debugging over a failing run of either mode: drops faults (ddmin over the schedule), then,
 * in a micro-batch run, batches (halving the workload), keeping each cut while the run still fails.
 * Every candidate is a full, deterministic replay, so the result is a schedule that fails on its
 * own.
 */
final class Shrinker {

  /** A smaller failing run: the schedule and the batch count to replay it with. */
  record Shrunk(FaultSchedule schedule, int batches, int runs) {}

  private static final int MAX_RUNS = 300;

  private final long seed;
  private final SimulationRun.Options options;
  private int runs;

  private Shrinker(long seed, SimulationRun.Options options) {
    this.seed = seed;
    this.options = options.withTracing(false);
  }

  static Shrunk shrink(long seed, SimulationRun.Options options, FaultSchedule failing) {
    return new Shrinker(seed, options).run(failing);
  }

  private boolean fails(List<FaultSchedule.Fault> faults, int batches) {
    if (runs >= MAX_RUNS) {
      return false;
    }
    runs++;
    return SimulationRun.run(seed, options.withBatches(batches), new FaultSchedule(faults))
        .failed();
  }

  private Shrunk run(FaultSchedule failing) {
    List<FaultSchedule.Fault> faults = new ArrayList<>(failing.faults());
    int batches = options.batches();
    faults = ddmin(faults, batches);
    // A Real-time Mode run has no batch count to cut: it runs until its rows are consumed.
    while (!(options.mode() instanceof RealTimeMode) && batches > 1 && fails(faults, batches / 2)) {
      batches /= 2;
    }
    // Fewer batches can make more faults unnecessary.
    faults = ddmin(faults, batches);
    return new Shrunk(new FaultSchedule(faults), batches, runs);
  }

  private List<FaultSchedule.Fault> ddmin(List<FaultSchedule.Fault> faults, int batches) {
    int n = 2;
    while (faults.size() >= 1 && runs < MAX_RUNS) {
      int size = faults.size();
      int chunk = Math.max(1, (size + n - 1) / n);
      boolean reduced = false;
      for (int from = 0; from < size; from += chunk) {
        List<FaultSchedule.Fault> complement = new ArrayList<>(faults.subList(0, from));
        complement.addAll(faults.subList(Math.min(size, from + chunk), size));
        if (fails(complement, batches)) {
          faults = complement;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (chunk == 1) {
          break;
        }
        n = Math.min(size, n * 2);
      }
    }
    return faults;
  }
}
