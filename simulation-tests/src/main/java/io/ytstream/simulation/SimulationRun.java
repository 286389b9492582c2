package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs one seed: builds the in-memory cluster, produces rows while batches run, steps the driver
 * (and a zombie, when there is one) one protocol step at a time on the simulated clock, injects the
 * scheduled faults, and checks the invariants. Single-threaded and seeded: the same seed and
 * schedule give the same run, step for step.
 */
final class SimulationRun {

  /** How a run is set up besides its seed and schedule. */
  record Options(SimMode mode, int partitions, Mutant mutant, int batches, boolean tracing) {
    Options withTracing(boolean on) {
      return new Options(mode, partitions, mutant, batches, on);
    }

    Options withBatches(int n) {
      return new Options(mode, partitions, mutant, n, tracing);
    }
  }

  private static final int MAX_RESTARTS = 60;
  private static final long RESTART_DELAY_MILLIS = 1_000;
  private static final long EXPIRY_JUMP_MILLIS = 31_000;

  /** Steps without consumer progress, past the budget, after which the run ends. */
  private static final int PROGRESS_WINDOW = 400;

  private SimulationRun() {}

  static long keyOf(long value) {
    return value % 5;
  }

  static FaultSchedule scheduleFor(long seed, Options options) {
    return FaultSchedule.generate(seed, options.batches(), options.mode());
  }

  static RunResult run(long seed, Options options) {
    return run(seed, options, scheduleFor(seed, options));
  }

  static RunResult run(long seed, Options options, FaultSchedule schedule) {
    Workload w = Workload.forSeed(seed, options.mode(), options.partitions(), options.batches());
    SimCluster cluster = new InMemorySimCluster();
    FaultClock faults = new FaultClock(schedule);
    long rowLimit = 0;
    if (schedule.has(SimFault.ROW_LIMIT) && w.mode() == SimMode.TRANSACTIONAL) {
      // The consumer advance writes one row per partition into the consumer's tablet too.
      rowLimit = 4 + Math.floorMod(seed, 12) + w.partitions().size();
      cluster.setMaxRowsPerTabletTransaction(rowLimit);
      faults.markFired(SimFault.ROW_LIMIT);
    }
    SimContext ctx =
        new SimContext(w, cluster, faults, options.mutant(), rowLimit, options.tracing());
    Verifier verifier = new Verifier(ctx);
    ctx.verifier = verifier;
    if (ctx.tracing()) {
      ctx.trace(
          "seed " + seed + " " + w + " schedule [" + schedule + "] mutant " + options.mutant());
    }
    setUp(cluster, w);

    SplittableRandom random = new SplittableRandom(seed);
    int driverIds = 0;
    Driver driver = new Driver(ctx, ++driverIds);
    Driver zombie = null;
    int zombieWakes = 0;
    int restarts = 0;
    long value = 0;
    int budget = w.produceSteps() * 4 + 800;
    // A slow but moving consumer is not stuck: a tight per-tablet row limit can hold a batch to
    // one input row, slower than rows arrive. Past the budget, the run goes on while the consumer
    // still moved within the last PROGRESS_WINDOW steps; STUCK then means it stopped moving.
    int limit = budget;
    int hardLimit = budget * 16;
    long lastTotal = -1;
    int lastMove = Integer.MIN_VALUE / 2;
    int step = 0;
    for (; step < limit; step++) {
      // Rows keep arriving while batches run.
      if (step < w.produceSteps() && random.nextInt(3) == 0) {
        int o = random.nextInt(w.partitions().size());
        PartitionId p = w.partitions().get(o);
        int n = 1 + random.nextInt(4);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          long v = value++;
          rows.add(Row.of("q", (long) w.queues().indexOf(p.queue()), "k", keyOf(v), "v", v));
          verifier.recordInput(o, v);
        }
        cluster.append(p.queue(), p.index(), rows);
      }
      cluster.advanceClock(1 + random.nextInt(20));

      if (faults.fires(SimFault.TRANSACTION_EXPIRY)) {
        ctx.trace("fault: clock jumps past the transaction timeout");
        cluster.advanceClock(EXPIRY_JUMP_MILLIS);
      }
      int trimArg = faults.tick(SimFault.QUEUE_TRIM);
      if (trimArg >= 0) {
        trim(ctx, verifier, trimArg);
      }
      int zombieArg = faults.tick(SimFault.ZOMBIE_DRIVER);
      if (zombieArg >= 0 && zombie == null && driver.inFlight()) {
        // The old driver stalls (a long GC pause, a network partition), a new one takes over,
        // and the old one wakes up later and goes on with what it was doing.
        zombie = driver;
        zombie.becomeZombie();
        zombieWakes = step + 15 + zombieArg * 5;
        driver = new Driver(ctx, ++driverIds);
        ctx.trace(
            "fault: d"
                + driver.id
                + " takes over; d"
                + zombie.id
                + " stalls until step "
                + zombieWakes);
      }

      boolean zombieTurn = zombie != null && step >= zombieWakes && random.nextBoolean();
      Driver actor = zombieTurn ? zombie : driver;
      try {
        actor.step();
      } catch (SimulatedCrash e) {
        ctx.trace("d" + actor.id + " " + e.getMessage());
        if (zombieTurn) {
          zombie = null;
        } else {
          driver = new Driver(ctx, ++driverIds);
          cluster.advanceClock(RESTART_DELAY_MILLIS);
        }
      } catch (QueryFailure e) {
        ctx.trace("d" + actor.id + " query failed: " + e.getMessage());
        if (zombieTurn) {
          zombie = null;
        } else {
          ctx.queryFailures++;
          if (e.permanent() || ++restarts > MAX_RESTARTS) {
            verifier.afterStep(true);
            break;
          }
          driver = new Driver(ctx, ++driverIds);
          cluster.advanceClock(RESTART_DELAY_MILLIS);
        }
      }
      if (zombie != null && zombie.finished()) {
        ctx.trace("zombie d" + zombie.id + " stops");
        zombie = null;
      }
      Driver.Kind kind = actor.lastKind();
      if (trimArg >= 0 || kind == null || kind.mayMoveConsumerOrOutput(w.mode())) {
        verifier.afterStep(
            kind == Driver.Kind.COMMIT_TXN
                || kind == Driver.Kind.READ_CONSUMER
                || kind == Driver.Kind.RESOLVE_UNKNOWN);
      }
      if (step >= w.produceSteps() && zombie == null && driver.idle() && allConsumed(verifier)) {
        break;
      }
      if (step >= budget - PROGRESS_WINDOW) {
        long total = consumedTotal(verifier);
        if (lastTotal >= 0 && total != lastTotal) {
          lastMove = step;
        }
        lastTotal = total;
      }
      if (step + 1 == limit
          && limit < hardLimit
          && !ctx.failedOnDataLoss
          && step - lastMove < PROGRESS_WINDOW
          && !allConsumed(verifier)) {
        limit = Math.min(hardLimit, limit + PROGRESS_WINDOW);
      }
    }
    verifier.finish();
    long[] fired = new long[SimFault.values().length];
    for (SimFault f : SimFault.values()) {
      fired[f.ordinal()] = faults.fired(f);
    }
    if (ctx.tracing()) {
      ctx.trace(
          "end: steps "
              + step
              + " batches "
              + ctx.batchesCommitted
              + " rows in "
              + verifier.rowsIn
              + " out "
              + verifier.rowsOut
              + " lost "
              + verifier.lost
              + " duplicated "
              + verifier.duplicated
              + " consumer "
              + consumerText(verifier));
    }
    return new RunResult(
        seed,
        w.toString(),
        schedule,
        verifier.violations(),
        ctx.batchesCommitted,
        fired,
        verifier.rowsIn,
        verifier.rowsOut,
        verifier.lost,
        verifier.duplicated,
        ctx.queryFailures,
        step,
        ctx.traceText());
  }

  private static String consumerText(Verifier verifier) {
    StringBuilder out = new StringBuilder();
    for (long c : verifier.consumer()) {
      out.append(out.length() == 0 ? "" : ",").append(c);
    }
    return out.toString();
  }

  private static long consumedTotal(Verifier verifier) {
    long total = 0;
    for (long c : verifier.consumer()) {
      total += c;
    }
    return total;
  }

  private static boolean allConsumed(Verifier verifier) {
    long[] c = verifier.consumer();
    for (int o = 0; o < c.length; o++) {
      if (c[o] < verifier.inputCount(o)) {
        return false;
      }
    }
    return true;
  }

  private static void setUp(SimCluster cluster, Workload w) {
    int[] perQueue = new int[w.queues().size()];
    for (PartitionId p : w.partitions()) {
      perQueue[w.queues().indexOf(p.queue())]++;
    }
    for (int q = 0; q < perQueue.length; q++) {
      cluster.createQueue(w.queues().get(q), perQueue[q]);
    }
    cluster.createConsumer(Workload.CONSUMER, w.queues());
    if (w.query() == QueryKind.AGGREGATE) {
      cluster.createOrderedTable(Workload.OUTPUT, List.of("k", "n"));
    } else if (w.mode() == SimMode.IDEMPOTENT) {
      cluster.createSortedTable(
          Workload.OUTPUT,
          List.of(Verifier.SRC_QUEUE, Verifier.SRC_TABLET, Verifier.SRC_ROW),
          List.of("v"));
    } else {
      cluster.createOrderedTable(Workload.OUTPUT, List.of("p", "r", "i", "v"));
    }
  }

  /** Retention trims a partition up to its consumer, and past it when arg says so. */
  private static void trim(SimContext ctx, Verifier verifier, int arg) {
    Workload w = ctx.workload;
    int o = arg % w.partitions().size();
    PartitionId p = w.partitions().get(o);
    StreamOffsets consumer =
        ctx.cluster.ports().consumerOffsets().read(Workload.CONSUMER, p.queue());
    long c = consumer.getOrDefault(p, 0);
    long total = verifier.inputCount(o);
    long target = Math.min(total, c + (arg / 4) % 4);
    ctx.trace("fault: trim " + p + " to " + target + " (consumer at " + c + ")");
    ctx.cluster.trim(p.queue(), p.index(), target);
  }
}
