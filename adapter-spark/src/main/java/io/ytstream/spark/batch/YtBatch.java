package io.ytstream.spark.batch;

import io.ytstream.application.PlanBatchRead;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.StaticReadPlan;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.source.YtInputPartition;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A static read's tasks: {@link PlanBatchRead} over the queues as they are when Spark plans, one
 * task per range of at most {@code max_rows_per_partition} rows.
 */
final class YtBatch implements Batch {

  private static final Logger LOG = LoggerFactory.getLogger(YtBatch.class);

  private final YtStaticReadSpec spec;
  private final AtomicLong plannedLostRows;
  private final AtomicReference<InputPartition[]> planned;

  /**
   * @param planned the scan's plan, shared by every batch Spark asks the scan for: the range is the
   *     one seen the first time, and its skipped rows are counted once
   */
  YtBatch(
      YtStaticReadSpec spec,
      AtomicLong plannedLostRows,
      AtomicReference<InputPartition[]> planned) {
    this.spec = spec;
    this.plannedLostRows = plannedLostRows;
    this.planned = planned;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    synchronized (planned) {
      if (planned.get() == null) {
        planned.set(plan());
      }
      return planned.get().clone();
    }
  }

  private InputPartition[] plan() {
    StaticReadPlan plan;
    try (YtCluster cluster = spec.cluster().connect()) {
      PlanBatchRead planner =
          new PlanBatchRead(
              queue -> {
                try {
                  return cluster.queueMetadata().partitions(queue);
                } catch (RuntimeException e) {
                  throw UserInputErrors.partitionsFailed(queue.path(), e);
                }
              },
              cluster.queueRangeReader(),
              spec.queues());
      plan =
          planner.plan(
              new PlanBatchRead.Bound(spec.start(), spec.startOption()),
              new PlanBatchRead.Bound(spec.end(), spec.endOption()),
              spec.maxRowsPerTask(),
              spec.failOnDataLoss() ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT);
    }
    if (!plan.losses().isEmpty()) {
      plannedLostRows.addAndGet(plan.lostRowCount());
      LOG.warn("yt static read skips trimmed rows (fail_on_data_loss=false): {}", plan.losses());
    }
    InputPartition[] out = new InputPartition[plan.ranges().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = new YtInputPartition(List.of(plan.ranges().get(i)));
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new YtBatchReaderFactory(spec);
  }
}
