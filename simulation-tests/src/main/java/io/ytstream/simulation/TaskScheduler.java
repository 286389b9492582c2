package io.ytstream.simulation;

import io.ytstream.core.plan.DataLossException;
import io.ytstream.simulation.Step.Kind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch's tasks as Spark's task scheduler runs them ({@code TaskSetManager}): every task of the
 * map stage, then the reduce stage for an aggregate; a failed attempt runs again, up to {@code
 * spark.task.maxFailures} (4) failures of a task, which fail the query; a speculative copy may run
 * beside an attempt, and whichever finishes first counts. What an attempt does is {@link
 * TaskAttempts}'.
 */
final class TaskScheduler {

  /** Spark's {@code spark.task.maxFailures} default. */
  private static final int MAX_TASK_FAILURES = 4;

  private final SimContext ctx;
  private final Workload w;
  private final int driverId;
  private final TaskAttempts executor;
  private final ArrayDeque<Step> steps;

  /** {@code steps}: the driver's queue, where retries and speculative copies go first. */
  TaskScheduler(SimContext ctx, int driverId, TaskAttempts executor, ArrayDeque<Step> steps) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.driverId = driverId;
    this.executor = executor;
    this.steps = steps;
  }

  /** The batch's task steps, in place of the placeholder {@code TASK} step in the queue. */
  void expandTasks(BatchInFlight batch) {
    List<Step> tasks = new ArrayList<>();
    for (int t = 0; t < batch.tasks.size(); t++) {
      tasks.add(new Step(Kind.TASK, t, batch.attempts[t]++, false));
    }
    if (w.query() == QueryKind.AGGREGATE && !batch.tasks.isEmpty()) {
      for (int r = 0; r < w.reduceTasks(); r++) {
        tasks.add(new Step(Kind.REDUCE_TASK, r, batch.attempts[batch.slot(1, r)]++, false));
      }
    }
    List<Step> rest = new ArrayList<>(steps);
    steps.clear();
    boolean expanded = false;
    for (Step step : rest) {
      if (!expanded && step.kind() == Kind.TASK) {
        steps.addAll(tasks);
        expanded = true;
      } else {
        steps.add(step);
      }
    }
  }

  /** One attempt of a map task: read its ranges, then write its rows or keep its counts. */
  void runMapTask(BatchInFlight batch, Step s, boolean zombie) {
    int t = s.task();
    if (batch.done[t] && !s.speculative()) {
      return; // a retry queued before another attempt of the task succeeded
    }
    int failArg = ctx.faults.tick(SimFault.TASK_FAILURE);
    if (ctx.faults.fires(SimFault.SPECULATION)) {
      steps.addFirst(new Step(Kind.TASK, t, batch.attempts[t]++, true));
    }
    int slowArg = ctx.faults.tick(SimFault.SLOW_TASK);
    if (slowArg >= 0 && batch.pinger != null && !zombie) {
      SlowTask.run(ctx, batch.pinger, SimStreamingWrite.TRANSACTION_TIMEOUT, slowArg);
    }
    try {
      var rows = executor.read(batch.tasks.get(t));
      if (w.query() == QueryKind.AGGREGATE) {
        if (failArg >= 0) {
          throw new IllegalStateException("simulated task failure");
        }
        if (batch.mapOutputs.get(t) == null) {
          batch.mapOutputs.set(t, TaskAttempts.countByKey(rows));
        }
        batch.done[t] = true;
        return;
      }
      executor.write(batch, executor.transform(rows), failArg, 0, t, s.attempt(), zombie);
      batch.done[t] = true;
    } catch (QueryFailure | SimulatedCrash | DataLossException e) {
      throw e;
    } catch (RuntimeException e) {
      failed(batch, Kind.TASK, t, 0, e, zombie);
    }
  }

  /** One attempt of a reduce task: sum its keys' counts over the map outputs, then write them. */
  void runReduceTask(BatchInFlight batch, Step s, boolean zombie) {
    int r = s.task();
    int slot = batch.slot(1, r);
    if (batch.done[slot] && !s.speculative()) {
      return;
    }
    int failArg = ctx.faults.tick(SimFault.TASK_FAILURE);
    if (ctx.faults.fires(SimFault.SPECULATION)) {
      steps.addFirst(new Step(Kind.REDUCE_TASK, r, batch.attempts[slot]++, true));
    }
    try {
      var out = TaskAttempts.sumsOf(batch.mapOutputs, r, w.reduceTasks());
      executor.write(batch, out, failArg, 1, r, s.attempt(), zombie);
      batch.done[slot] = true;
    } catch (QueryFailure | SimulatedCrash e) {
      throw e;
    } catch (RuntimeException e) {
      failed(batch, Kind.REDUCE_TASK, r, 1, e, zombie);
    }
  }

  private void failed(
      BatchInFlight batch, Kind kind, int task, int stage, RuntimeException e, boolean zombie) {
    if (!zombie && StepFailures.isShippedBug(e)) {
      ctx.verifier.onSpuriousFailure(kind + "(" + task + ")", e);
    }
    int slot = batch.slot(stage, task);
    ctx.trace("d" + driverId + " " + kind + "(" + task + ") failed: " + e.getMessage());
    if (batch.done[slot]) {
      return; // a speculative copy failed after another attempt succeeded
    }
    if (++batch.failures[slot] >= MAX_TASK_FAILURES) {
      throw new QueryFailure("task " + task + " failed " + MAX_TASK_FAILURES + " times", false, e);
    }
    steps.addFirst(new Step(kind, task, batch.attempts[slot]++, false));
  }
}
