package io.ytstream.simulation;

import io.ytstream.simulation.check.Violation;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line:
 *
 * <pre>
 * simulate --mode transactional|idempotent|at-least-once|producer|static-table --seeds N
 *          [--partitions P]
 *          [--mutant NAME|all] [--replay SEED [--schedule TEXT]] [--batches B] [--first-seed S]
 *          [--split true]  (each driver cuts batches into tasks by options drawn from the seed)
 *          [--tablet-choice true]  (the job places its rows by $tablet_index or a key hash)
 * simulate --mode realtime-upsert|realtime-append|realtime-producer|realtime-stateful --seeds N
 *          [--first-seed S] [--partitions P] [--replay SEED [--schedule TEXT]]
 * </pre>
 *
 * The mode is data ({@link RunMode}): one loop runs, shrinks and replays either kind. Prints a
 * table (seeds, batches, faults by kind, rows in and out, lost, duplicated, mutants caught, wall
 * time, simulated batches per second); every failing seed (up to five) is printed with its shrunk
 * fault schedule and the command that replays it. Exit code 1 on any violation of the correct
 * protocol, or when a requested mutant is not caught; 2 on bad arguments.
 */
public final class Simulate {

  /** The tally over many seeds. */
  static final class Totals {
    long seeds;
    long batches;
    long rowsIn;
    long rowsOut;
    long lost;
    long duplicated;
    long skippedPushRows;
    long failedSeeds;
    long queryFailures;
    long stoppedOnDamagedCheckpoint;
    final long[] faults = new long[SimFault.values().length];
    final List<RunResult> failures = new ArrayList<>();

    void add(RunResult r) {
      seeds++;
      batches += r.batches();
      rowsIn += r.rowsIn();
      rowsOut += r.rowsOut();
      lost += r.lost();
      duplicated += r.duplicated();
      skippedPushRows += r.skippedPushRows();
      queryFailures += r.queryFailures();
      stoppedOnDamagedCheckpoint += r.stoppedOnDamagedCheckpoint() ? 1 : 0;
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
  }

  private Simulate() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    int code;
    try {
      code = run(args, out);
    } catch (IllegalArgumentException e) {
      out.println("simulate: " + e.getMessage());
      code = 2;
    }
    System.exit(code);
  }

  static int run(String[] args, PrintStream out) {
    RunMode mode = SimMode.TRANSACTIONAL;
    long seeds = 200;
    long firstSeed = 1;
    int partitions = 0;
    int batches = 30;
    String mutantName = null;
    Long replay = null;
    String schedule = null;
    boolean split = false;
    boolean tabletChoice = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--mode" -> mode = RunMode.parse(need(a, v));
        case "--seeds" -> seeds = Long.parseLong(need(a, v));
        case "--first-seed" -> firstSeed = Long.parseLong(need(a, v));
        case "--partitions" -> partitions = Integer.parseInt(need(a, v));
        case "--batches" -> batches = Integer.parseInt(need(a, v));
        case "--mutant" -> mutantName = need(a, v);
        case "--replay" -> replay = Long.parseLong(need(a, v));
        case "--schedule" -> schedule = need(a, v);
        case "--split" -> split = Boolean.parseBoolean(need(a, v));
        case "--tablet-choice" -> tabletChoice = Boolean.parseBoolean(need(a, v));
        default -> throw new IllegalArgumentException("unknown argument " + a);
      }
      i++;
    }
    boolean realTime = mode instanceof RealTimeMode;
    if (realTime && (mutantName != null || batches != 30)) {
      throw new IllegalArgumentException(
          "--mutant and --batches are for micro-batch modes, not " + mode.cliName());
    }
    if (partitions < 0 || partitions > (realTime ? 6 : 16)) {
      throw new IllegalArgumentException(
          "--partitions takes 1.." + (realTime ? 6 : 16) + " in mode " + mode.cliName());
    }
    if ("all".equals(mutantName)) {
      return allMutants(seeds, firstSeed, partitions, batches, out);
    }
    Mutant mutant = mutantName == null ? Mutant.NONE : Mutant.parse(mutantName);
    SimulationRun.Options options =
        new SimulationRun.Options(mode, partitions, mutant, batches, false)
            .withSplitTasks(split)
            .withTabletChoice(tabletChoice);
    if (replay != null) {
      return replay(replay, options, schedule, out);
    }
    long start = System.nanoTime();
    long cpuStart = cpuNanos();
    Totals totals = new Totals();
    RunResult caught = null;
    for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      totals.add(r);
      if (mutant != Mutant.NONE && r.failed()) {
        caught = r;
        break;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (cpuNanos() - cpuStart) / 1e9;
    printTable(
        out,
        mode,
        totals,
        seconds,
        cpuSeconds,
        mutant == Mutant.NONE ? "-" : caught != null ? "1/1" : "0/1");
    for (RunResult f : totals.failures) {
      printFailure(out, f, options);
    }
    if (mutant != Mutant.NONE) {
      out.println(
          caught != null
              ? "mutant " + mutant.cliName() + " caught at seed " + caught.seed()
              : "mutant " + mutant.cliName() + " NOT caught in " + seeds + " seeds");
      return caught != null ? 0 : 1;
    }
    return totals.failedSeeds == 0 ? 0 : 1;
  }

  private static String need(String flag, String value) {
    if (value == null) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return value;
  }

  private static int replay(
      long seed, SimulationRun.Options options, String scheduleText, PrintStream out) {
    FaultSchedule schedule =
        scheduleText == null
            ? SimulationRun.scheduleFor(seed, options)
            : FaultSchedule.parse(scheduleText);
    RunResult r = SimulationRun.run(seed, options.withTracing(true), schedule);
    out.print(r.trace());
    if (options.mode() instanceof RealTimeMode) {
      out.println("result: " + (r.failed() ? "FAILED " + r.violations() : "ok"));
      return r.failed() ? 1 : 0;
    }
    out.println(
        "result: "
            + (r.failed() ? "FAILED " + r.violations() : "ok")
            + " batches="
            + r.batches()
            + " rows_in="
            + r.rowsIn()
            + " rows_out="
            + r.rowsOut()
            + " lost="
            + r.lost()
            + " duplicated="
            + r.duplicated());
    return r.failed() ? 1 : 0;
  }

  static int allMutants(long seeds, long firstSeed, int partitions, int batches, PrintStream out) {
    int caught = 0;
    int total = 0;
    for (Mutant m : Mutant.values()) {
      if (m == Mutant.NONE) {
        continue;
      }
      total++;
      SimulationRun.Options options =
          new SimulationRun.Options(m.targetMode(), partitions, m, batches, false);
      long startNanos = System.nanoTime();
      RunResult hit = null;
      long tried = 0;
      for (long seed = firstSeed; seed < firstSeed + seeds && hit == null; seed++) {
        tried++;
        RunResult r = SimulationRun.run(seed, options);
        if (r.failed()) {
          hit = r;
        }
      }
      double ms = (System.nanoTime() - startNanos) / 1e6;
      if (hit != null) {
        caught++;
      }
      out.printf(
          Locale.ROOT,
          "%-28s %-14s %s%n",
          m.cliName(),
          m.targetMode().cliName(),
          hit == null
              ? "NOT CAUGHT in " + tried + " seeds"
              : "caught at seed "
                  + hit.seed()
                  + " ("
                  + tried
                  + " seeds, "
                  + (long) ms
                  + " ms) by "
                  + hit.violations().get(0).property());
    }
    out.println("mutants caught: " + caught + "/" + total);
    return caught == total ? 0 : 1;
  }

  /** CPU time of this thread: the machine may be shared, so the rate is reported per CPU second. */
  static long cpuNanos() {
    java.lang.management.ThreadMXBean bean =
        java.lang.management.ManagementFactory.getThreadMXBean();
    return bean.isCurrentThreadCpuTimeSupported()
        ? bean.getCurrentThreadCpuTime()
        : System.nanoTime();
  }

  static void printTable(
      PrintStream out,
      RunMode mode,
      Totals t,
      double seconds,
      double cpuSeconds,
      String mutantsCaught) {
    StringBuilder faults = new StringBuilder();
    long faultTotal = 0;
    for (SimFault f : SimFault.values()) {
      long n = t.faults[f.ordinal()];
      faultTotal += n;
      if (n > 0) {
        faults
            .append(faults.length() == 0 ? "" : ", ")
            .append(f.name().toLowerCase(Locale.ROOT))
            .append('=')
            .append(n);
      }
    }
    out.printf(Locale.ROOT, "%-22s %s%n", "mode", mode.cliName());
    out.printf(Locale.ROOT, "%-22s %d%n", "seeds", t.seeds);
    out.printf(Locale.ROOT, "%-22s %d%n", "batches", t.batches);
    out.printf(Locale.ROOT, "%-22s %d (%s)%n", "faults injected", faultTotal, faults);
    out.printf(Locale.ROOT, "%-22s %d%n", "query restarts", t.queryFailures);
    boolean realTime = mode instanceof RealTimeMode;
    if (realTime) {
      out.printf(
          Locale.ROOT,
          "%-22s %d (two runs wrote commits/N without offsets/N)%n",
          "stopped: checkpoint",
          t.stoppedOnDamagedCheckpoint);
    }
    out.printf(Locale.ROOT, "%-22s %d%n", "rows in", t.rowsIn);
    out.printf(Locale.ROOT, "%-22s %d%n", "rows out", t.rowsOut);
    if (!realTime) {
      out.printf(Locale.ROOT, "%-22s %d%n", "lost", t.lost);
    }
    out.printf(Locale.ROOT, "%-22s %d%n", "duplicated", t.duplicated);
    if (mode.producer()) {
      out.printf(Locale.ROOT, "%-22s %d%n", "rows skipped (dedup)", t.skippedPushRows);
    }
    out.printf(Locale.ROOT, "%-22s %d%n", "seeds with violations", t.failedSeeds);
    if (!realTime) {
      out.printf(Locale.ROOT, "%-22s %s%n", "mutants caught", mutantsCaught);
    }
    out.printf(Locale.ROOT, "%-22s %.2f s%n", "wall time", seconds);
    out.printf(Locale.ROOT, "%-22s %.2f s%n", "cpu time (one core)", cpuSeconds);
    out.printf(
        Locale.ROOT,
        "%-22s %.0f per wall second, %.0f per cpu second%n",
        "simulated batches/s",
        seconds > 0 ? t.batches / seconds : 0.0,
        cpuSeconds > 0 ? t.batches / cpuSeconds : 0.0);
  }

  static void printFailure(PrintStream out, RunResult r, SimulationRun.Options options) {
    out.println("FAILED seed " + r.seed() + " [" + r.workload() + "]");
    for (Violation v : r.violations()) {
      out.println("  " + v);
    }
    out.println("  fault schedule: [" + r.schedule() + "]");
    Shrinker.Shrunk s = Shrinker.shrink(r.seed(), options, r.schedule());
    boolean realTime = options.mode() instanceof RealTimeMode;
    out.println(
        "  shrunk ("
            + s.runs()
            + " replays): "
            + (realTime ? "" : "batches=" + s.batches() + " ")
            + "schedule=["
            + s.schedule()
            + "]");
    out.println(
        "  replay: simulate --mode "
            + options.mode().cliName()
            + (options.partitions() > 0 ? " --partitions " + options.partitions() : "")
            + (options.mutant() != Mutant.NONE ? " --mutant " + options.mutant().cliName() : "")
            + (realTime ? "" : " --batches " + s.batches())
            + (options.splitTasks() ? " --split true" : "")
            + (options.tabletChoice() ? " --tablet-choice true" : "")
            + " --replay "
            + r.seed()
            + " --schedule '"
            + s.schedule()
            + "'");
  }
}
