package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.EnumSource.Mode;

/**
 * Every mode over {@code simulation.seeds} seeds (2,000 in CI, 100,000 with {@code -Psoak}): no
 * violation, nothing lost, nothing duplicated in the exactly-once modes, duplicates seen in
 * at-least-once (so the duplicate counter is not blind), and in producer mode rows the server
 * skipped as already written (so replays and lost answers did reach the deduplication).
 */
class SeedsPerModeTest {

  static long seeds() {
    return Long.getLong("simulation.seeds", 2000);
  }

  @ParameterizedTest
  @EnumSource(SimMode.class)
  void everySeedKeepsTheInvariants(SimMode mode) {
    Simulate.Totals totals =
        runSeeds(new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false), seeds(), "");
    assertTrue(totals.batches > seeds() * 5, "batches actually ran: " + totals.batches);
    assertTrue(totals.rowsIn > 0 && totals.rowsOut > 0);
    long faults = 0;
    for (long n : totals.faults) {
      faults += n;
    }
    assertTrue(faults > seeds(), "faults were injected: " + faults);
    if (mode == SimMode.PRODUCER) {
      assertTrue(totals.skippedPushRows > 0, "producer mode must replay pushes the server skips");
    }
    if (mode.exactlyOnce()) {
      assertEquals(0, totals.duplicated, "duplicates in " + mode);
    } else {
      assertTrue(totals.duplicated > 0, "at-least-once must show duplicates under crash faults");
    }
  }

  /**
   * The modes that take a split source, each driver cutting batches into tasks by options drawn
   * from the seed ({@code min_tasks}, {@code max_rows_per_task}, both or none), so a restarted
   * query runs a logged batch under other options: a quarter of the seeds, the same invariants.
   */
  @ParameterizedTest
  @EnumSource(value = SimMode.class, names = "PRODUCER", mode = Mode.EXCLUDE)
  void everySeedKeepsTheInvariantsWithTasksSplitDifferentlyAfterEachRestart(SimMode mode) {
    Simulate.Totals totals =
        runSeeds(
            new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false).withSplitTasks(true),
            Math.max(1, seeds() / 4),
            " with split tasks");
    assertTrue(totals.rowsIn > 0 && totals.rowsOut > 0);
    if (mode.exactlyOnce()) {
      assertEquals(0, totals.duplicated, "duplicates in " + mode);
    }
  }

  /**
   * The modes whose ordered output the job may place rows in, with the job choosing each row's
   * tablet ({@code $tablet_index} or {@code output_tablet_key}, drawn per seed): a quarter of the
   * seeds, the same invariants and {@code MisplacedWrite}.
   */
  @ParameterizedTest
  @EnumSource(
      value = SimMode.class,
      names = {"TRANSACTIONAL", "AT_LEAST_ONCE", "PRODUCER"})
  void everySeedKeepsTheInvariantsWithTheJobChoosingTablets(SimMode mode) {
    Simulate.Totals totals =
        runSeeds(
            new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false).withTabletChoice(true),
            Math.max(1, seeds() / 4),
            " with chosen tablets");
    assertTrue(totals.rowsIn > 0 && totals.rowsOut > 0);
    if (mode.exactlyOnce()) {
      assertEquals(0, totals.duplicated, "duplicates in " + mode);
    }
  }

  /**
   * Seeds 1 to {@code count} under {@code options}: fails naming the first three seeds with
   * violations, or when a row was lost; returns the totals for the caller's own checks.
   */
  private static Simulate.Totals runSeeds(SimulationRun.Options options, long count, String how) {
    Simulate.Totals totals = new Simulate.Totals();
    List<String> failures = new ArrayList<>();
    for (long seed = 1; seed <= count; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      totals.add(r);
      if (r.failed() && failures.size() < 3) {
        failures.add(
            "seed " + r.seed() + " " + r.violations() + " schedule [" + r.schedule() + "]");
      }
    }
    assertEquals(List.of(), failures, options.mode() + how + ": seeds with violations");
    assertEquals(0, totals.lost, "lost rows");
    return totals;
  }
}
