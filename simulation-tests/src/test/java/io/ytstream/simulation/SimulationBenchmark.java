package io.ytstream.simulation;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Measures simulated micro-batches per second on one core (per CPU second of this thread, so a busy
 * shared machine does not skew it), after a warm-up. A benchmark, not a timed test:
 *
 * <pre>
 * mvn -B -o -q -pl simulation-tests -am test-compile exec:java \
 *   -Dexec.mainClass=io.ytstream.simulation.SimulationBenchmark -Dexec.args="1000 1000"
 * </pre>
 *
 * <p>Arguments: seeds measured per mode (default 1,000), warm-up seeds per mode (default 1,000).
 * Every mode is warmed up before the first is measured: with 200 warm-up seeds of one mode, the
 * first mode measured was largely the JIT compiling shared code, and on a loaded machine (compiler
 * threads starved) that alone halved its figure.
 */
public final class SimulationBenchmark {

  private SimulationBenchmark() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    long seeds = args.length > 0 ? Long.parseLong(args[0]) : 1000;
    long warmUp = args.length > 1 ? Long.parseLong(args[1]) : 1000;
    for (SimMode mode : SimMode.values()) {
      SimulationRun.Options options = new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false);
      for (long seed = 1_000_000; seed < 1_000_000 + warmUp; seed++) {
        SimulationRun.run(seed, options);
      }
    }
    for (SimMode mode : SimMode.values()) {
      SimulationRun.Options options = new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false);
      long batches = 0;
      long cpu = Simulate.cpuNanos();
      long wall = System.nanoTime();
      for (long seed = 1; seed <= seeds; seed++) {
        batches += SimulationRun.run(seed, options).batches();
      }
      double cpuSeconds = (Simulate.cpuNanos() - cpu) / 1e9;
      double wallSeconds = (System.nanoTime() - wall) / 1e9;
      out.printf(
          Locale.ROOT,
          "%-14s seeds=%d batches=%d cpu=%.2fs wall=%.2fs batches/cpu-s=%.0f batches/wall-s=%.0f%n",
          mode.cliName(),
          seeds,
          batches,
          cpuSeconds,
          wallSeconds,
          batches / cpuSeconds,
          batches / wallSeconds);
    }
  }
}
