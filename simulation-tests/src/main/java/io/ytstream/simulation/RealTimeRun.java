package io.ytstream.simulation;

import io.ytstream.application.realtime.BoundsReadAhead;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs one Real-time Mode seed: builds the in-memory cluster, produces rows while real-time batches
 * run, steps the driver (Spark's real-time order, {@link RealTimeDriver}) and its threads (the
 * consumer advance, the bounds read ahead) on the simulated clock, injects the schedule's faults,
 * and checks {@link RealTimeOutput}. A crash or a failed query starts a new driver on the same
 * checkpoint (the restart resumes at the last committed boundary); a stalled consumer advance or a
 * stalled driver leaves two drivers live for a while.
 */
final class RealTimeRun {

  /** The faults a real-time schedule mixes (the push faults for the producer writer only). */
  private static final SimFault[] MIXED = {
    SimFault.CRASH_BEFORE_STEP,
    SimFault.CRASH_AFTER_STEP,
    SimFault.COMMIT_UNKNOWN,
    SimFault.LOCK_CONFLICT,
    SimFault.TASK_FAILURE,
    SimFault.PROXY_ERROR,
    SimFault.ZOMBIE_DRIVER,
    SimFault.RESHARD
  };

  private static final int MAX_RESTARTS = 60;
  private static final long RESTART_DELAY_MILLIS = 1_000;
  private static final int STALL_STEPS = 20;
  private static final int PROGRESS_WINDOW = 400;

  /**
   * How long, on the simulated clock, a query has after its queue was re-created to stop: twice the
   * age past which bounds read ahead are no longer offered, so that every boundary from then on
   * reads in line (a batch already running and a successor's late start can take that long).
   */
  private static final long RECREATION_NOTICE_MS = 2 * BoundsReadAhead.MAX_AGE_MS;

  private static final int HARD_LIMIT = 16;

  private RealTimeRun() {}

  /**
   * Up to ten faults, kinds mixed, placed over a run's expected events; about one seed in eight has
   * none; a stalled consumer advance in about one in four of the others, drawn apart.
   */
  static FaultSchedule scheduleFor(long seed, RealTimeMode mode) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    List<FaultSchedule.Fault> faults = new ArrayList<>();
    if (random.nextInt(8) == 0) {
      return new FaultSchedule(faults);
    }
    List<SimFault> mix = new ArrayList<>(List.of(MIXED));
    if (mode == RealTimeMode.PRODUCER) {
      mix.add(SimFault.PUSH_REQUEST_LOST);
      mix.add(SimFault.SESSION_TAKEN_OVER);
    }
    int count = 1 + random.nextInt(10);
    for (int i = 0; i < count; i++) {
      SimFault kind = mix.get(random.nextInt(mix.size()));
      int span =
          switch (kind.event()) {
            case "step" -> 600;
            case "commit" -> 250;
            case "task" -> 400;
            case "push" -> 200;
            case "call" -> 2_500;
            default -> 1;
          };
      faults.add(new FaultSchedule.Fault(kind, random.nextInt(span), random.nextInt(16)));
    }
    SplittableRandom stalls = new SplittableRandom(seed ^ 0x510E527FADE682D1L);
    if (stalls.nextInt(4) == 0) {
      faults.add(
          new FaultSchedule.Fault(
              SimFault.STALLED_ADVANCE, stalls.nextInt(40), stalls.nextInt(16)));
    }
    // Retention trims mid-stream, in one seed in three, and a re-created queue in one in eight:
    // each from a stream of its own, so the mix above is the same with or without them.
    SplittableRandom trims = new SplittableRandom(seed ^ 0x1F83D9ABFB41BD6BL);
    if (trims.nextInt(3) == 0) {
      int n = 1 + trims.nextInt(3);
      for (int i = 0; i < n; i++) {
        faults.add(
            new FaultSchedule.Fault(SimFault.QUEUE_TRIM, trims.nextInt(500), trims.nextInt(64)));
      }
    }
    SplittableRandom recreations = new SplittableRandom(seed ^ 0x5BE0CD19137E2179L);
    if (recreations.nextInt(8) == 0) {
      faults.add(
          new FaultSchedule.Fault(
              SimFault.QUEUE_RECREATED, 40 + recreations.nextInt(300), recreations.nextInt(16)));
    }
    if (mode == RealTimeMode.STATEFUL) {
      // Two live runs of a stateful query break what its upserted table promises: a stalled run's
      // tasks upsert counts older than the checkpoint its successor committed, and no upsert can
      // refuse them (YTsaurus has no conditional write); RealTimeSeedsTest shows it. The
      // schedule keeps one live run, restarted after every kill.
      faults.removeIf(
          f -> f.kind() == SimFault.ZOMBIE_DRIVER || f.kind() == SimFault.STALLED_ADVANCE);
    }
    return new FaultSchedule(faults);
  }

  static RunResult run(long seed, RealTimeMode mode, int partitions, boolean tracing) {
    return run(seed, mode, partitions, scheduleFor(seed, mode), tracing);
  }

  static RunResult run(
      long seed, RealTimeMode mode, int partitions, FaultSchedule schedule, boolean tracing) {
    RealTimeWorkload w = RealTimeWorkload.forSeed(seed, mode, partitions);
    SimCluster cluster = new InMemorySimCluster();
    FaultClock faults = new FaultClock(schedule);
    RealTimeContext ctx = new RealTimeContext(w, cluster, faults, tracing);
    RealTimeOutput checker = new RealTimeOutput(ctx);
    ctx.checker = checker;
    ctx.trace("seed " + seed + " " + w + " schedule [" + schedule + "]");
    setUp(cluster, w);

    SplittableRandom random = new SplittableRandom(seed);
    Live live = new Live(ctx);
    FaultyPorts.TakeOver takeOver = live::stallAndTakeOver;
    long value = 0;
    int present = w.initialPartitions();
    int budget = w.produceSteps() * 4 + 800;
    // A slow but moving consumer is not stuck: past the budget the run goes on while the consumer
    // moved within the last PROGRESS_WINDOW steps, up to HARD_LIMIT times the budget.
    int limit = budget;
    long lastTotal = -1;
    int lastMove = 0;
    int step = 0;
    int recreatedAt = -1;
    long recreatedAtMs = -1;
    for (; step < limit; step++) {
      if (step < w.produceSteps() && recreatedAt < 0 && random.nextInt(3) == 0) {
        int o = random.nextInt(present);
        PartitionId p = w.partitions().get(o);
        int n = 1 + random.nextInt(4);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          long v = value++;
          rows.add(Row.of("q", 0L, "k", keyOf(v), "v", v));
          checker.recordInput(o, v);
        }
        cluster.append(p.queue(), p.index(), rows);
      }
      cluster.advanceClock(1 + random.nextInt(20));
      if (faults.fires(SimFault.RESHARD) && present < w.partitions().size() && recreatedAt < 0) {
        present = w.partitions().size();
        ctx.trace("fault: reshard " + w.queue() + " to " + present + " partitions");
        cluster.reshard(w.queue(), present);
      }
      int trimArg = faults.tick(SimFault.QUEUE_TRIM);
      if (trimArg >= 0 && recreatedAt < 0) {
        trim(ctx, trimArg, present);
      }
      if (faults.fires(SimFault.QUEUE_RECREATED) && recreatedAt < 0) {
        // No more rows arrive in it: the query must notice and stop, moving nothing on it.
        ctx.trace("fault: " + w.queue() + " is dropped and created again with " + present);
        // What the old queue held and had trimmed is taken before it goes.
        checker.onQueueRecreated();
        cluster.recreateQueue(w.queue(), present);
        recreatedAt = step;
        recreatedAtMs = ctx.now();
      }
      int zombieArg = faults.tick(SimFault.ZOMBIE_DRIVER);
      if (zombieArg >= 0 && live.zombie == null && live.driver.inBatch()) {
        // The driver stalls (a long pause), a new one takes over, the old one wakes later.
        live.zombie = live.driver;
        live.zombie.becomeZombie();
        live.zombieWakes = step + 15 + zombieArg * 5;
        live.driver = new RealTimeDriver(ctx, ++live.ids);
        ctx.trace("fault: d" + live.driver.id + " takes over; d" + live.zombie.id + " stalls");
      }
      live.step = step;
      if (live.zombie != null && step >= live.zombieWakes && random.nextBoolean()) {
        live.stepZombie();
      } else {
        live.stepDriver();
      }
      if (live.zombie == null) {
        // The current driver's consumer advance may stall on the wire while another takes over.
        ctx.io.stallWith(takeOver);
      }
      live.tickThreads();
      ctx.io.stallWith(null);
      if (live.stopped) {
        break;
      }
      checker.afterStep();
      if (recreatedAt >= 0
          && step - recreatedAt >= PROGRESS_WINDOW
          && ctx.now() - recreatedAtMs >= RECREATION_NOTICE_MS) {
        break; // long enough for the query to notice: finish says whether it did
      }
      if (step >= w.produceSteps()
          && recreatedAt < 0
          && live.zombie == null
          && live.driver.idle()
          && allConsumed(ctx)) {
        break;
      }
      long total = 0;
      for (long c : checker.consumer()) {
        total += c;
      }
      if (total != lastTotal) {
        lastTotal = total;
        lastMove = step;
      }
      if (step + 1 == limit
          && limit < budget * HARD_LIMIT
          && step - lastMove < PROGRESS_WINDOW
          && !allConsumed(ctx)) {
        limit += PROGRESS_WINDOW;
      }
    }
    if (schedule.faults().isEmpty() && ctx.firstFailure != null) {
      checker.onSpuriousFailure(ctx.firstFailure);
    }
    boolean consumedAll = allConsumed(ctx);
    if (recreatedAt >= 0) {
      checker.onRunEndAfterRecreation(
          ctx.stoppedOnUntrustedPositions || live.stopped, live.driver.positions());
    }
    checker.finish(
        consumedAll,
        ctx.stoppedOnDamagedCheckpoint || ctx.stoppedOnDataLoss || ctx.stoppedOnUntrustedPositions);
    long[] fired = new long[SimFault.values().length];
    for (SimFault f : SimFault.values()) {
      fired[f.ordinal()] = faults.fired(f);
    }
    ctx.trace(
        "end: steps "
            + step
            + " batches "
            + ctx.batchesCommitted
            + " rows in "
            + checker.rowsIn()
            + " out "
            + checker.rowsOut
            + " duplicated "
            + checker.duplicated);
    return new RunResult(
        seed,
        w.toString(),
        schedule,
        List.copyOf(checker.violations()),
        ctx.batchesCommitted,
        fired,
        checker.rowsIn(),
        checker.rowsOut,
        checker.lost,
        checker.duplicated,
        ctx.io.skippedPushRows(),
        ctx.queryFailures,
        step,
        ctx.traceText(),
        ctx.stoppedOnDamagedCheckpoint,
        ctx.stoppedOnDataLoss,
        ctx.stoppedOnUntrustedPositions,
        ctx.reportedLost.stream().mapToLong(l -> l.lostRows()).sum());
  }

  /** The drivers of a run: the current one, restarted after each crash or failure, and a zombie. */
  private static final class Live {
    private final RealTimeContext ctx;
    RealTimeDriver driver;
    RealTimeDriver zombie;
    int ids;
    int restarts;
    int step;
    int zombieWakes;
    boolean stopped;

    Live(RealTimeContext ctx) {
      this.ctx = ctx;
      this.driver = new RealTimeDriver(ctx, ++ids);
    }

    void tickThreads() {
      if (zombie != null) {
        zombie.tickThreads();
        if (zombie != null && zombie.finished()) {
          zombie = null;
        }
      }
      RealTimeDriver d = driver;
      try {
        d.tickThreads();
      } catch (SimulatedCrash e) {
        // A crash scheduled inside a call the thread made: the driver dies with it.
        ctx.trace("d" + d.id + " " + e.getMessage() + " (on the consumer's thread)");
        restart(d, false);
      }
    }

    void stepDriver() {
      RealTimeDriver actor = driver;
      try {
        actor.step();
      } catch (SimulatedCrash e) {
        ctx.trace("d" + actor.id + " " + e.getMessage());
        if (actor == zombie) {
          actor.die();
          zombie = null;
        } else {
          restart(actor, false);
        }
      } catch (QueryFailure e) {
        ctx.trace("d" + actor.id + " query failed: " + e.getMessage());
        if (actor == zombie) {
          actor.stop();
          zombie = null;
          return;
        }
        ctx.queryFailures++;
        if (ctx.firstFailure == null) {
          ctx.firstFailure = "d" + actor.id + ": " + e.getMessage();
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
          if (c instanceof NullPointerException
              || c instanceof IndexOutOfBoundsException
              || c instanceof ClassCastException) {
            // No fault makes these: only a bug in the shipped code (or the harness) does.
            ctx.checker.onSpuriousFailure("d" + actor.id + ": " + e.getMessage());
          }
        }
        if (e.permanent() || ++restarts > MAX_RESTARTS) {
          actor.stop();
          stopped = true;
        } else {
          restart(actor, true);
        }
      }
    }

    void stepZombie() {
      RealTimeDriver actor = zombie;
      try {
        actor.step();
      } catch (SimulatedCrash e) {
        ctx.trace("d" + actor.id + " " + e.getMessage());
        actor.die();
        zombie = null;
      } catch (QueryFailure e) {
        ctx.trace("d" + actor.id + " query failed: " + e.getMessage());
        actor.stop();
        zombie = null;
      }
      if (zombie != null && zombie.finished()) {
        zombie = null;
      }
    }

    private void restart(RealTimeDriver old, boolean failed) {
      if (failed) {
        old.stop(); // the source's stop(): the consumer moves to the last end handed over
      } else {
        old.die();
      }
      if (old == driver) {
        driver = new RealTimeDriver(ctx, ++ids);
        ctx.cluster.advanceClock(RESTART_DELAY_MILLIS);
      }
    }

    /**
     * The current driver's consumer advance is on the wire: a new driver takes over and runs {@code
     * STALL_STEPS + 4 * arg} steps (with its threads), then the old request lands and the old
     * driver goes on as a zombie.
     */
    void stallAndTakeOver(int arg, String request) {
      RealTimeDriver stalled = driver;
      stalled.becomeZombie();
      zombie = stalled;
      zombieWakes = step;
      driver = new RealTimeDriver(ctx, ++ids);
      int steps = STALL_STEPS + 4 * arg;
      ctx.trace(
          "fault: d"
              + stalled.id
              + " stalls with "
              + request
              + " on the wire; d"
              + driver.id
              + " takes over for "
              + steps
              + " steps");
      for (int i = 0; i < steps && !stopped; i++) {
        ctx.cluster.advanceClock(10);
        stepDriver();
        RealTimeDriver d = driver;
        try {
          d.tickThreads();
        } catch (SimulatedCrash e) {
          restart(d, false);
        }
        ctx.checker.afterStep();
      }
      ctx.trace("d" + stalled.id + "'s consumer advance lands");
    }
  }

  /** The key of the row of value {@code v} (the stateful query groups by it). */
  static long keyOf(long v) {
    return v % 5;
  }

  private static boolean allConsumed(RealTimeContext ctx) {
    long[] c = ctx.checker.consumer();
    for (int o = 0; o < c.length; o++) {
      if (c[o] < ctx.checker.inputCount(o) && !ctx.checker.goneUnread(o, c[o])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Retention trims a partition: up to the consumer and 0-3 rows past it, or (one time in four) all
   * its rows, past every task's position.
   */
  private static void trim(RealTimeContext ctx, int arg, int present) {
    RealTimeWorkload w = ctx.workload;
    int o = arg % present;
    PartitionId p = w.partitions().get(o);
    long c = ctx.checker.consumer()[o];
    long total = ctx.checker.inputCount(o);
    long target = (arg / present) % 4 == 0 ? total : Math.min(total, c + (arg / 4) % 4);
    ctx.trace("fault: trim " + p + " to " + target + " (consumer at " + c + ")");
    ctx.cluster.trim(p.queue(), p.index(), target);
  }

  static void setUp(SimCluster cluster, RealTimeWorkload w) {
    cluster.createQueue(w.queue(), w.initialPartitions());
    cluster.createConsumer(Workload.CONSUMER, List.of(w.queue()));
    switch (w.mode()) {
      case UPSERT ->
          cluster.createSortedTable(
              Workload.OUTPUT,
              List.of(Verifier.SRC_QUEUE, Verifier.SRC_TABLET, Verifier.SRC_ROW),
              List.of("v"));
      case APPEND ->
          cluster.createOutputQueue(
              Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
      case STATEFUL -> cluster.createSortedTable(Workload.OUTPUT, List.of("k"), List.of("count"));
      case PRODUCER -> {
        cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
        cluster.createQueueProducer(Workload.PRODUCER);
      }
    }
  }
}
