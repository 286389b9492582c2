package io.ytstream.simulation;

import io.ytstream.simulation.check.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Recorded simulation traces: seed, fault schedule, every protocol step and the final state. A
 * replay must produce the same steps, line for line.
 */
final class TraceVectors {

  /** One recorded run. */
  record Case(SimMode mode, long seed, int partitions, int batches) {
    String fileName() {
      return mode.cliName() + "-seed-" + seed + ".json";
    }

    SimulationRun.Options options() {
      return new SimulationRun.Options(mode, partitions, Mutant.NONE, batches, true);
    }
  }

  static final List<Case> CASES =
      List.of(
          new Case(SimMode.TRANSACTIONAL, 7, 2, 6),
          new Case(SimMode.TRANSACTIONAL, 11, 3, 8),
          new Case(SimMode.IDEMPOTENT, 5, 2, 6),
          new Case(SimMode.AT_LEAST_ONCE, 3, 2, 6),
          new Case(SimMode.AT_LEAST_ONCE, 13, 4, 8));

  private TraceVectors() {}

  static Map<String, Object> record(Case c) {
    RunResult r = SimulationRun.run(c.seed(), c.options());
    return toJson(c, r);
  }

  static Map<String, Object> toJson(Case c, RunResult r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", "simulation_trace");
    out.put("version", 1L);
    out.put("mode", c.mode().cliName());
    out.put("seed", c.seed());
    out.put("partitions", (long) c.partitions());
    out.put("batches", (long) c.batches());
    out.put("workload", r.workload());
    List<Object> faults = new ArrayList<>();
    for (FaultSchedule.Fault f : r.schedule().faults()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", f.kind().name().toLowerCase(Locale.ROOT));
      m.put("event", f.kind().event());
      m.put("at", (long) f.at());
      m.put("arg", (long) f.arg());
      faults.add(m);
    }
    out.put("fault_schedule", faults);
    out.put("steps", new ArrayList<Object>(List.of(r.trace().split("\n", -1))));
    Map<String, Object> fin = new LinkedHashMap<>();
    fin.put("batches", r.batches());
    fin.put("rows_in", r.rowsIn());
    fin.put("rows_out", r.rowsOut());
    fin.put("lost", r.lost());
    fin.put("duplicated", r.duplicated());
    List<Object> violations = new ArrayList<>();
    for (Violation v : r.violations()) {
      violations.add(v.property().name());
    }
    fin.put("violations", violations);
    out.put("final", fin);
    return out;
  }
}
