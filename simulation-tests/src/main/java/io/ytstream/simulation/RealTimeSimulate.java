package io.ytstream.simulation;

import io.ytstream.simulation.check.Violation;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line for Real-time Mode ({@code simulate --mode realtime-...}):
 *
 * <pre>
 * simulate --mode realtime-upsert|realtime-append|realtime-producer --seeds N [--first-seed S]
 *          [--partitions P] [--replay SEED [--schedule TEXT]]
 * </pre>
 *
 * Prints the seeds' figures; every failing seed (up to five) with its violations, its schedule, the
 * schedule shrunk by dropping faults one at a time while the seed still fails, and the command that
 * replays it with a trace. Exit code 1 on any violation, 2 on bad arguments.
 */
final class RealTimeSimulate {

  private RealTimeSimulate() {}

  static int run(String[] args, PrintStream out) {
    RealTimeMode mode = RealTimeMode.UPSERT;
    long seeds = 200;
    long firstSeed = 1;
    int partitions = 0;
    Long replay = null;
    String schedule = null;
    for (int i = 0; i < args.length; i += 2) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (v == null) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      switch (a) {
        case "--mode" -> mode = RealTimeMode.parse(v);
        case "--seeds" -> seeds = Long.parseLong(v);
        case "--first-seed" -> firstSeed = Long.parseLong(v);
        case "--partitions" -> partitions = Integer.parseInt(v);
        case "--replay" -> replay = Long.parseLong(v);
        case "--schedule" -> schedule = v;
        default ->
            throw new IllegalArgumentException(
                "unknown argument " + a + " for a realtime mode (no --mutant or --batches here)");
      }
    }
    if (partitions < 0 || partitions > 6) {
      throw new IllegalArgumentException("--partitions takes 1..6 in a realtime mode");
    }
    if (replay != null) {
      FaultSchedule s =
          schedule == null ? RealTimeRun.scheduleFor(replay, mode) : FaultSchedule.parse(schedule);
      RealTimeRun.Result r = RealTimeRun.run(replay, mode, partitions, s, true);
      out.print(r.trace());
      out.println("result: " + (r.failed() ? "FAILED " + r.violations() : "ok"));
      return r.failed() ? 1 : 0;
    }
    long start = System.nanoTime();
    long cpuStart = Simulate.cpuNanos();
    long[] faults = new long[SimFault.values().length];
    long batches = 0;
    long rowsIn = 0;
    long rowsOut = 0;
    long duplicated = 0;
    long skipped = 0;
    long restarts = 0;
    long failedSeeds = 0;
    long damaged = 0;
    List<RealTimeRun.Result> failures = new ArrayList<>();
    for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
      RealTimeRun.Result r = RealTimeRun.run(seed, mode, partitions, false);
      batches += r.batches();
      rowsIn += r.rowsIn();
      rowsOut += r.rowsOut();
      duplicated += r.duplicated();
      skipped += r.skippedPushRows();
      restarts += r.queryFailures();
      damaged += r.stoppedOnDamagedCheckpoint() ? 1 : 0;
      for (SimFault f : SimFault.values()) {
        faults[f.ordinal()] += r.fired(f);
      }
      if (r.failed()) {
        failedSeeds++;
        if (failures.size() < 5) {
          failures.add(r);
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (Simulate.cpuNanos() - cpuStart) / 1e9;
    StringBuilder fired = new StringBuilder();
    long faultTotal = 0;
    for (SimFault f : SimFault.values()) {
      long n = faults[f.ordinal()];
      faultTotal += n;
      if (n > 0) {
        fired
            .append(fired.length() == 0 ? "" : ", ")
            .append(f.name().toLowerCase(Locale.ROOT))
            .append('=')
            .append(n);
      }
    }
    out.printf(Locale.ROOT, "%-22s %s%n", "mode", mode.cliName());
    out.printf(Locale.ROOT, "%-22s %d%n", "seeds", seeds);
    out.printf(Locale.ROOT, "%-22s %d%n", "batches", batches);
    out.printf(Locale.ROOT, "%-22s %d (%s)%n", "faults injected", faultTotal, fired);
    out.printf(Locale.ROOT, "%-22s %d%n", "query restarts", restarts);
    out.printf(
        Locale.ROOT,
        "%-22s %d (two runs wrote commits/N without offsets/N)%n",
        "stopped: checkpoint",
        damaged);
    out.printf(Locale.ROOT, "%-22s %d%n", "rows in", rowsIn);
    out.printf(Locale.ROOT, "%-22s %d%n", "rows out", rowsOut);
    out.printf(Locale.ROOT, "%-22s %d%n", "duplicated", duplicated);
    if (mode == RealTimeMode.PRODUCER) {
      out.printf(Locale.ROOT, "%-22s %d%n", "rows skipped (dedup)", skipped);
    }
    out.printf(Locale.ROOT, "%-22s %d%n", "seeds with violations", failedSeeds);
    out.printf(Locale.ROOT, "%-22s %.2f s%n", "wall time", seconds);
    out.printf(Locale.ROOT, "%-22s %.2f s%n", "cpu time (one core)", cpuSeconds);
    out.printf(
        Locale.ROOT,
        "%-22s %.0f per cpu second%n",
        "simulated batches/s",
        cpuSeconds > 0 ? batches / cpuSeconds : 0.0);
    for (RealTimeRun.Result f : failures) {
      out.println("FAILED seed " + f.seed() + " [" + f.workload() + "]");
      for (Violation v : f.violations()) {
        out.println("  " + v);
      }
      out.println("  fault schedule: [" + f.schedule() + "]");
      FaultSchedule shrunk = shrink(f.seed(), mode, partitions, f.schedule());
      out.println("  shrunk schedule: [" + shrunk + "]");
      out.println(
          "  replay: simulate --mode "
              + mode.cliName()
              + (partitions > 0 ? " --partitions " + partitions : "")
              + " --replay "
              + f.seed()
              + " --schedule '"
              + shrunk
              + "'");
    }
    return failedSeeds == 0 ? 0 : 1;
  }

  /** Drops faults one at a time while the seed still fails. */
  static FaultSchedule shrink(long seed, RealTimeMode mode, int partitions, FaultSchedule failing) {
    List<FaultSchedule.Fault> faults = new ArrayList<>(failing.faults());
    for (int i = faults.size() - 1; i >= 0; i--) {
      List<FaultSchedule.Fault> without = new ArrayList<>(faults);
      without.remove(i);
      if (RealTimeRun.run(seed, mode, partitions, new FaultSchedule(without), false).failed()) {
        faults = without;
      }
    }
    return new FaultSchedule(faults);
  }
}
