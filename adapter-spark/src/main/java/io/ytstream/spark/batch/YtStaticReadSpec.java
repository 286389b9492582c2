package io.ytstream.spark.batch;

import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.source.YtSourceSpec;
import io.ytstream.spark.types.ColumnSpec;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * A validated static read ({@code spark.read().format("yt")}): the queues as the stream checks them
 * (without a consumer), the range's start and end, the task size and the data-loss policy. A time
 * is refused here on a queue without {@code $timestamp}, before anything is read.
 */
public record YtStaticReadSpec(
    ClusterRef cluster,
    List<QueueId> queues,
    List<ColumnSpec> columns,
    boolean includeServiceColumns,
    StartingOffsets start,
    String startOption,
    StartingOffsets end,
    String endOption,
    long maxRowsPerTask,
    boolean failOnDataLoss) {

  /** The rows' schema alone, as a read without a consumer sees the queues. */
  public static StructType schema(YtOptions options, YtSettings settings) {
    try (YtCluster cluster = settings.cluster(options).connect()) {
      YtSourceSpec.Queues queues = YtSourceSpec.Queues.describe(cluster, options, Optional.empty());
      return YtSourceSpec.schemaOf(
          queues.columns(), options.includeServiceColumns(), queues.ids().size() > 1);
    }
  }

  /**
   * @throws IllegalArgumentException for an option a static read does not take, a bad range, or a
   *     time on a queue without {@code $timestamp}
   */
  public static YtStaticReadSpec resolve(YtOptions options, YtSettings settings) {
    options.checkStatic();
    StartingOffsets start = options.staticStart();
    StartingOffsets end = options.staticEnd();
    long maxRowsPerTask = options.maxRowsPerStaticTask();
    ClusterRef ref = settings.cluster(options);
    try (YtCluster cluster = ref.connect()) {
      YtSourceSpec.Queues queues = YtSourceSpec.Queues.describe(cluster, options, Optional.empty());
      if (start instanceof StartingOffsets.AtTimestamp) {
        queues.requireTimestamp(options.staticStartOption());
      }
      if (end instanceof StartingOffsets.AtTimestamp) {
        queues.requireTimestamp(options.staticEndOption());
      }
      return new YtStaticReadSpec(
          ref,
          queues.ids(),
          queues.columns(),
          options.includeServiceColumns(),
          start,
          options.staticStartOption(),
          end,
          options.staticEndOption(),
          maxRowsPerTask,
          options.failOnDataLoss());
    }
  }

  public boolean multiQueue() {
    return queues.size() > 1;
  }

  public StructType schema() {
    return YtSourceSpec.schemaOf(columns, includeServiceColumns, multiQueue());
  }
}
