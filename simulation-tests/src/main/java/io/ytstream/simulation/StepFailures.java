package io.ytstream.simulation;

import io.ytstream.application.BatchTooLargeException;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.UntrustedPositionsException;
import java.util.List;

/**
 * How a step's exception ends the query, as Spark's {@code StreamExecution.runStream} ends it: a
 * crash stays a crash; data loss, positions that no longer fit the queue and a batch the sink
 * refuses fail the query with the fix named, again after every restart (permanent); anything else
 * fails the query and a restart goes on; a null pointer, an index out of bounds, a bad cast or an
 * arithmetic error ({@link #isShippedBug}) is a bug of the shipped code whatever follows. A
 * zombie's failures reach nobody: its query was superseded.
 */
final class StepFailures {

  private StepFailures() {}

  static RuntimeException end(SimContext ctx, Step s, RuntimeException e, boolean zombie) {
    if (e instanceof SimulatedCrash || e instanceof QueryFailure) {
      return e;
    }
    if (!zombie && isShippedBug(e)) {
      ctx.verifier.onSpuriousFailure(s.toString(), e);
    }
    if (e instanceof ConsumerFencedException fenced) {
      ctx.verifier.onConsumerFenced(s.toString(), fenced);
    }
    if (e instanceof DataLossException loss) {
      return dataLoss(ctx, loss.losses(), zombie);
    }
    if (e instanceof UntrustedPositionsException) {
      if (!zombie) {
        ctx.failedOnUntrustedPositions = true;
      }
      return new QueryFailure(s + " failed: " + e.getMessage(), true, e);
    }
    if (e instanceof BatchTooLargeException) {
      // Lower max_rows_per_partition or reshard the output: the same batch is refused again.
      if (!zombie) {
        ctx.failedOnTooLargeBatch = true;
      }
      return new QueryFailure(s + " failed: " + e.getMessage(), true, e);
    }
    return new QueryFailure(s + " failed: " + e.getMessage(), false, e);
  }

  /**
   * Whether {@code e} or one of its causes is a null pointer, an index out of bounds, a bad cast or
   * an arithmetic error: no fault makes these (faults answer with the cluster's errors, lost
   * answers and crashes), only a bug of the shipped code does.
   */
  static boolean isShippedBug(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof NullPointerException
          || c instanceof IndexOutOfBoundsException
          || c instanceof ClassCastException
          || c instanceof ArithmeticException) {
        return true;
      }
    }
    return false;
  }

  private static QueryFailure dataLoss(SimContext ctx, List<DataLoss> losses, boolean zombie) {
    ctx.verifier.onDataLossFailure(losses);
    if (!zombie) {
      for (DataLoss loss : losses) {
        ctx.reportLoss(loss.partition(), loss.requestedOffset(), loss.firstAvailableRow());
      }
      ctx.failedOnDataLoss = true;
    }
    return new QueryFailure("data loss: " + losses, true, null);
  }
}
