package io.ytstream.application;

import io.ytstream.core.plan.DataLoss;

/**
 * Where a use case reports trimmed rows it skipped under {@code fail_on_data_loss=false}: the Spark
 * source counts them in its {@code lostRows} metric, the simulation hands them to its checker.
 */
@FunctionalInterface
public interface LostRows {

  /** Rows {@code [loss.requestedOffset(), loss.firstAvailableRow())} were skipped. */
  void skipped(DataLoss loss);
}
