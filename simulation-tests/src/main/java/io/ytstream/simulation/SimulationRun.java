package io.ytstream.simulation;

import io.ytstream.application.PlanBatchRead;
import io.ytstream.application.ReadRanges;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.StaticReadPlan;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs one seed of either mode ({@link RunMode}): a Real-time Mode writer goes to {@link
 * RealTimeRun}; a micro-batch delivery mode is run here: builds the in-memory cluster, produces
 * rows while batches run, steps the driver (and a zombie, when there is one) one protocol step at a
 * time on the simulated clock, injects the scheduled faults, and checks the checkers' properties.
 * Single-threaded and seeded: the same seed and schedule give the same run, step for step.
 */
final class SimulationRun {

  /** How a run is set up besides its seed and schedule. */
  /**
   * @param splitTasks whether each driver cuts its batches' ranges into tasks by options drawn from
   *     the seed and the driver (so a restarted query runs a logged batch under other options);
   *     never in producer mode, whose sink refuses a split source
   * @param tabletChoice whether the job places its output rows by a {@link TabletChoice} drawn from
   *     the seed (ordered outputs of stateless queries: transactional, at-least-once, producer)
   */
  record Options(
      RunMode mode,
      int partitions,
      Mutant mutant,
      int batches,
      boolean tracing,
      boolean splitTasks,
      boolean tabletChoice) {
    Options(RunMode mode, int partitions, Mutant mutant, int batches, boolean tracing) {
      this(mode, partitions, mutant, batches, tracing, false, false);
    }

    Options(RunMode mode, int partitions) {
      this(mode, partitions, Mutant.NONE, 30, false);
    }

    Options withTracing(boolean on) {
      return new Options(mode, partitions, mutant, batches, on, splitTasks, tabletChoice);
    }

    Options withBatches(int n) {
      return new Options(mode, partitions, mutant, n, tracing, splitTasks, tabletChoice);
    }

    Options withSplitTasks(boolean on) {
      return new Options(mode, partitions, mutant, batches, tracing, on, tabletChoice);
    }

    Options withTabletChoice(boolean on) {
      return new Options(mode, partitions, mutant, batches, tracing, splitTasks, on);
    }
  }

  private static final int MAX_RESTARTS = 60;
  private static final long RESTART_DELAY_MILLIS = 1_000;
  private static final long EXPIRY_JUMP_MILLIS = 31_000;

  /** How many steps a new driver runs, at least, while an old one's advance is on the wire. */
  private static final int STALL_STEPS = 20;

  /** Steps without consumer progress, past the budget, after which the run ends. */
  private static final int PROGRESS_WINDOW = 400;

  private SimulationRun() {}

  static long keyOf(long value) {
    return value % 5;
  }

  static FaultSchedule scheduleFor(long seed, Options options) {
    return options.mode() instanceof RealTimeMode rt
        ? RealTimeRun.scheduleFor(seed, rt)
        : FaultSchedule.generate(seed, options.batches(), (SimMode) options.mode());
  }

  static RunResult run(long seed, Options options) {
    return run(seed, options, scheduleFor(seed, options));
  }

  static RunResult run(long seed, Options options, FaultSchedule schedule) {
    if (options.mode() instanceof RealTimeMode rt) {
      return RealTimeRun.run(seed, rt, options.partitions(), schedule, options.tracing());
    }
    Workload drawn =
        Workload.forSeed(seed, (SimMode) options.mode(), options.partitions(), options.batches());
    SimCluster cluster = new InMemorySimCluster();
    FaultClock faults = new FaultClock(schedule);
    long rowLimit = 0;
    if (schedule.has(SimFault.ROW_LIMIT) && drawn.mode() == SimMode.TRANSACTIONAL) {
      // The consumer advance writes one row per partition into the consumer's tablet too.
      // Partitions a reshard adds count only when the schedule reshards.
      int partitions =
          drawn.partitions().size()
              - (schedule.has(SimFault.RESHARD) ? 0 : drawn.addedPartitions());
      rowLimit = 4 + Math.floorMod(seed, 12) + partitions;
      cluster.setMaxRowsPerTabletTransaction(rowLimit);
      faults.markFired(SimFault.ROW_LIMIT);
    }
    // In one such seed in four (a stream of its own) the user set the query's limit above the
    // cluster's: the sink cannot refuse what it cannot count, and the cluster refuses the commit.
    long settingRowLimit = rowLimit;
    SplittableRandom setting = new SplittableRandom(seed * 0x5851F42D4C957F2DL + 17);
    if (rowLimit > 0 && setting.nextInt(4) == 0) {
      settingRowLimit = rowLimit + 1 + setting.nextLong(rowLimit);
    }
    // As the sink's refusal tells a user: a max_rows_per_partition whose batch fits the output;
    // where the fault's arg is a multiple of 4 the user has not lowered it yet, so a batch may be
    // refused.
    boolean lowered = true;
    for (FaultSchedule.Fault f : schedule.faults()) {
      lowered &= f.kind() != SimFault.ROW_LIMIT || f.arg() % 4 != 0;
    }
    // The user sizes batches by the limit the query is told.
    Workload w = rowLimit > 0 && lowered ? drawn.fittingTheOutput(settingRowLimit) : drawn;
    SimContext ctx =
        new SimContext(
            w, cluster, faults, options.mutant(), rowLimit, settingRowLimit, options.tracing());
    if (options.splitTasks() && w.mode() != SimMode.PRODUCER) {
      ctx.taskSplitSeed = OptionalLong.of(seed);
    }
    if (options.tabletChoice() && TabletChoice.applies(w)) {
      ctx.tabletChoice = TabletChoice.forSeed(seed);
    }
    Verifier verifier = new Verifier(ctx);
    ctx.verifier = verifier;
    ctx.io.onWrite(verifier::onWriteRequest);
    ctx.io.onTooManyRows(verifier::onCommitOverTabletLimit);
    if (ctx.tracing()) {
      ctx.trace(
          "seed " + seed + " " + w + " schedule [" + schedule + "] mutant " + options.mutant());
      if (ctx.tabletChoice != TabletChoice.ROUND_ROBIN) {
        ctx.trace("the job chooses output tablets by " + ctx.tabletChoice);
      }
    }
    setUp(cluster, w);

    SplittableRandom random = new SplittableRandom(seed);
    Live live = new Live(ctx);
    FaultyPorts.TakeOver takeOver = (arg, request) -> live.stallAndTakeOver(arg, request, verifier);
    long value = 0;
    boolean[] present = new boolean[w.partitions().size()];
    List<Integer> producible = new ArrayList<>();
    for (int o = 0; o < present.length; o++) {
      PartitionId p = w.partitions().get(o);
      present[o] = p.index() < w.initialPartitions(p.queue());
      if (present[o]) {
        producible.add(o);
      }
    }
    boolean resharded = false;
    Set<QueueId> recreated = new TreeSet<>();
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
        int o = producible.get(random.nextInt(producible.size()));
        if (o >= 0) {
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
      }
      cluster.advanceClock(1 + random.nextInt(20));

      if (faults.fires(SimFault.TRANSACTION_EXPIRY)) {
        ctx.trace("fault: clock jumps past the transaction timeout");
        cluster.advanceClock(EXPIRY_JUMP_MILLIS);
      }
      if (faults.fires(SimFault.RESHARD) && !resharded) {
        reshard(ctx, present);
        resharded = true;
        producible.clear();
        for (int o = 0; o < present.length; o++) {
          if (!recreated.contains(w.partitions().get(o).queue())) {
            producible.add(o);
          }
        }
        if (producible.isEmpty()) {
          producible.add(-1);
        }
      }
      int recreateArg = faults.tick(SimFault.QUEUE_RECREATED);
      if (recreateArg >= 0) {
        QueueId queue = recreate(ctx, verifier, recreateArg, present);
        recreated.add(queue);
        producible.removeIf(o -> w.partitions().get(o).queue().equals(queue));
        if (producible.isEmpty()) {
          producible.add(-1);
        }
      }
      int trimArg = faults.tick(SimFault.QUEUE_TRIM);
      if (trimArg >= 0
          && !recreated.contains(w.partitions().get(trimArg % w.partitions().size()).queue())) {
        trim(ctx, verifier, trimArg, present);
      }
      int zombieArg = faults.tick(SimFault.ZOMBIE_DRIVER);
      if (zombieArg >= 0 && live.zombie == null && live.driver.inFlight()) {
        // The old driver stalls (a long GC pause, a network partition), a new one takes over,
        // and the old one wakes up later and goes on with what it was doing.
        live.zombie = live.driver;
        live.zombie.becomeZombie();
        live.zombieWakes = step + 15 + zombieArg * 5;
        live.driver = new Driver(ctx, ++live.ids);
        ctx.trace(
            "fault: d"
                + live.driver.id
                + " takes over; d"
                + live.zombie.id
                + " stalls until step "
                + live.zombieWakes);
      }

      live.step = step;
      boolean zombieTurn = live.zombie != null && step >= live.zombieWakes && random.nextBoolean();
      Step.Kind kind;
      if (zombieTurn) {
        // While the zombie waits on a call, the new driver may run a few steps of its own.
        ctx.io.interleaveWith(
            arg -> {
              ctx.trace("fault: d" + live.driver.id + " runs inside a call of the zombie");
              for (int i = 0; i <= arg && !live.stopped; i++) {
                Step.Kind k = live.stepDriver();
                if (k == null || k.mayMoveConsumerOrOutput(w.mode())) {
                  verifier.afterStep(k);
                }
              }
            });
        kind = live.stepZombie();
        ctx.io.interleaveWith(null);
      } else if (live.zombie == null) {
        // The driver may stall with a consumer advance on the wire while a new one takes over.
        ctx.io.stallWith(takeOver);
        kind = live.stepDriver();
        ctx.io.stallWith(null);
      } else {
        kind = live.stepDriver();
      }
      if (live.stopped) {
        verifier.afterStep(kind, true);
        break;
      }
      if (live.zombie != null && live.zombie.finished()) {
        ctx.trace("zombie d" + live.zombie.id + " stops");
        live.zombie = null;
      }
      if (trimArg >= 0 || kind == null || kind.mayMoveConsumerOrOutput(w.mode())) {
        verifier.afterStep(kind);
      }
      if (step >= w.produceSteps()
          && live.zombie == null
          && live.driver.idle()
          && allConsumed(verifier)) {
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
          && !ctx.stoppedWithReason()
          && step - lastMove < PROGRESS_WINDOW
          && !allConsumed(verifier)) {
        limit = Math.min(hardLimit, limit + PROGRESS_WINDOW);
      }
    }
    staticRead(ctx, verifier, recreated);
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
              + verifier.rowsIn()
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
        verifier.rowsIn(),
        verifier.rowsOut,
        verifier.lost,
        verifier.duplicated,
        ctx.io.skippedPushRows(),
        ctx.queryFailures,
        step,
        ctx.traceText(),
        false,
        false,
        false,
        0);
  }

  /**
   * The drivers of a run: the current one (Spark's, restarted after each crash or failure) and an
   * old one still running (a zombie), each stepped with its failures handled.
   */
  private static final class Live {
    private final SimContext ctx;
    Driver driver;
    Driver zombie;
    int ids;
    int restarts;

    /** The run's step now, and the first step at which the zombie runs again. */
    int step;

    int zombieWakes;

    /** The query failed for good (data loss, or too many restarts). */
    boolean stopped;

    Live(SimContext ctx) {
      this.ctx = ctx;
      this.driver = new Driver(ctx, ++ids);
    }

    /**
     * One step of the current driver; a crash or failure starts a new one. A driver that stalled
     * inside the step ({@link SimFault#STALLED_ADVANCE}) ends it as a zombie, and its crash or
     * failure ends only the zombie.
     */
    Step.Kind stepDriver() {
      Driver actor = driver;
      try {
        actor.step();
        if (actor == driver && actor.ranToItsEnd()) {
          // The scheduler starts the next AvailableNow run on the same checkpoint.
          ctx.trace("d" + actor.id + " AvailableNow run ended");
          driver = new Driver(ctx, ++ids);
          ctx.cluster.advanceClock(RESTART_DELAY_MILLIS);
        }
      } catch (SimulatedCrash e) {
        ctx.trace("d" + actor.id + " " + e.getMessage());
        if (actor == zombie) {
          zombie = null;
        } else {
          driver = new Driver(ctx, ++ids);
          ctx.cluster.advanceClock(RESTART_DELAY_MILLIS);
        }
      } catch (QueryFailure e) {
        ctx.trace("d" + actor.id + " query failed: " + e.getMessage());
        if (actor == zombie) {
          zombie = null;
          return actor.lastKind();
        }
        ctx.queryFailures++;
        if (e.permanent() || ++restarts > MAX_RESTARTS) {
          stopped = true;
        } else {
          driver = new Driver(ctx, ++ids);
          ctx.cluster.advanceClock(RESTART_DELAY_MILLIS);
        }
      }
      return actor.lastKind();
    }

    /**
     * The current driver stalls inside a consumer advance, its request on the wire: a new driver
     * takes over and runs {@code STALL_STEPS + 4 * arg} steps (no rows arrive and the clock stands
     * still meanwhile, as in a pause of the old driver alone), then the request lands and the old
     * driver goes on as a zombie.
     */
    void stallAndTakeOver(int arg, String request, Verifier verifier) {
      Driver stalled = driver;
      stalled.becomeZombie();
      zombie = stalled;
      zombieWakes = step;
      driver = new Driver(ctx, ++ids);
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
        Step.Kind k = stepDriver();
        if (k == null || k.mayMoveConsumerOrOutput(ctx.workload.mode())) {
          verifier.afterStep(k);
        }
      }
      ctx.trace("d" + stalled.id + "'s consumer advance lands");
    }

    /** One step of the zombie; a crash or failure ends it (its query was superseded). */
    Step.Kind stepZombie() {
      Driver actor = zombie;
      try {
        actor.step();
      } catch (SimulatedCrash e) {
        ctx.trace("d" + actor.id + " " + e.getMessage());
        zombie = null;
      } catch (QueryFailure e) {
        ctx.trace("d" + actor.id + " query failed: " + e.getMessage());
        zombie = null;
      }
      return actor.lastKind();
    }
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
    if (w.queueTimestamps()) {
      cluster.declareQueueTimestamps();
    }
    for (QueueId q : w.queues()) {
      cluster.createQueue(q, w.initialPartitions(q));
    }
    cluster.createConsumer(Workload.CONSUMER, w.queues());
    if (w.mode() == SimMode.STATIC_TABLE) {
      cluster.createStaticTable(Workload.OUTPUT, List.of("p", "r", "i", "v"));
    } else if (w.query() == QueryKind.AGGREGATE) {
      cluster.createOrderedTable(Workload.OUTPUT, List.of("k", "n"));
    } else if (w.mode() == SimMode.PRODUCER) {
      cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
      cluster.createQueueProducer(Workload.PRODUCER);
    } else if (w.mode() == SimMode.IDEMPOTENT) {
      cluster.createSortedTable(
          Workload.OUTPUT,
          List.of(Verifier.SRC_QUEUE, Verifier.SRC_TABLET, Verifier.SRC_ROW),
          List.of("v"));
    } else {
      cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
    }
  }

  /**
   * After the stream: {@code spark.read} of every queue from earliest to latest, through the
   * shipped {@link PlanBatchRead} and {@link ReadRanges} without a consumer, over the faulty ports.
   * Spark retries a failed task; a read that still fails is the query's failure, not a violation.
   * What it returns is checked against the queue's rows (re-created queues are left out).
   */
  private static void staticRead(SimContext ctx, Verifier verifier, Set<QueueId> recreated) {
    Workload w = ctx.workload;
    List<QueueId> queues = new ArrayList<>();
    for (QueueId q : w.queues()) {
      if (!recreated.contains(q)) {
        queues.add(q);
      }
    }
    if (queues.isEmpty()) {
      return;
    }
    PlanBatchRead planner = new PlanBatchRead(ctx.io, ctx.io::pullWithoutConsumer, queues);
    StaticReadPlan plan;
    try {
      plan =
          planner.plan(
              new PlanBatchRead.Bound(new StartingOffsets.Earliest(), "starting_offsets"),
              new PlanBatchRead.Bound(new StartingOffsets.Latest(), "ending_offsets"),
              w.maxRowsPerPartition(),
              DataLossPolicy.SKIP_AND_REPORT);
    } catch (RuntimeException e) {
      ctx.trace("static read not planned: " + e.getMessage());
      return;
    }
    TreeMap<PartitionId, List<QueueRow>> read = new TreeMap<>();
    for (OffsetRange range : plan.ranges()) {
      for (int attempt = 1; ; attempt++) {
        try {
          List<QueueRow> rows =
              ReadRanges.withoutConsumer(
                      ctx.io::pullWithoutConsumer,
                      ctx.io,
                      List.of(range),
                      w.pullLimit(),
                      DataLossPolicy.SKIP_AND_REPORT,
                      loss -> {})
                  .readAll();
          read.computeIfAbsent(range.partition(), p -> new ArrayList<>()).addAll(rows);
          break;
        } catch (RuntimeException e) {
          if (attempt == 4) {
            ctx.trace("static read task " + range + " failed 4 times: " + e.getMessage());
            return;
          }
        }
      }
    }
    verifier.onStaticRead(queues, read);
  }

  /**
   * A queue is dropped and created again, empty, with the partitions it has now; the checker
   * remembers where the consumer stood on it.
   */
  private static QueueId recreate(SimContext ctx, Verifier verifier, int arg, boolean[] present) {
    Workload w = ctx.workload;
    QueueId queue = w.queues().get(arg % w.queues().size());
    int partitions = 0;
    for (int o = 0; o < present.length; o++) {
      if (present[o] && w.partitions().get(o).queue().equals(queue)) {
        partitions++;
      }
    }
    ctx.trace(
        "fault: " + queue + " is dropped and created again with " + partitions + " partitions");
    ctx.cluster.recreateQueue(queue, partitions);
    verifier.onQueueRecreated(queue);
    return queue;
  }

  /** The first queue gets its added partitions. */
  private static void reshard(SimContext ctx, boolean[] present) {
    Workload w = ctx.workload;
    QueueId queue = w.queues().get(0);
    int to = w.initialPartitions(queue) + w.addedPartitions();
    ctx.trace("fault: reshard " + queue + " to " + to + " partitions");
    ctx.cluster.reshard(queue, to);
    Arrays.fill(present, true);
  }

  /** Retention trims a partition up to its consumer, and past it when arg says so. */
  private static void trim(SimContext ctx, Verifier verifier, int arg, boolean[] present) {
    Workload w = ctx.workload;
    int o = arg % w.partitions().size();
    if (!present[o]) {
      return; // not created yet
    }
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
