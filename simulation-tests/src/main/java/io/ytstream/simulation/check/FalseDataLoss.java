package io.ytstream.simulation.check;

import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossPolicy;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The query failed for data loss with no lost rows to name, naming rows that were not trimmed, or
 * under {@code fail_on_data_loss=false}, which skips and reports instead.
 */
public final class FalseDataLoss {

  public static final Property PROPERTY =
      new Property("FalseDataLoss", "data loss failure without lost rows, or against the policy");

  private FalseDataLoss() {}

  /**
   * The query fails for data loss naming {@code losses}; {@code trimmed} gives a partition's first
   * untrimmed row as the checker knows it, or -1 where a row's trim is not judged (micro-batch: the
   * plan's own bounds may be newer than the checker's view).
   */
  public static void failed(
      Violations out,
      List<DataLoss> losses,
      DataLossPolicy policy,
      ToLongFunction<DataLoss> trimmed) {
    if (losses.isEmpty() || policy != DataLossPolicy.FAIL) {
      out.add(PROPERTY, "failed for data loss " + losses + " with fail_on_data_loss " + policy);
      return;
    }
    for (DataLoss loss : losses) {
      if (loss.firstAvailableRow() <= loss.requestedOffset()) {
        out.add(PROPERTY, "failed for data loss naming no rows: " + loss);
      }
      long first = trimmed.applyAsLong(loss);
      if (first >= 0 && loss.requestedOffset() >= first) {
        out.add(PROPERTY, "failed for data loss naming untrimmed rows: " + loss);
      }
    }
  }
}
