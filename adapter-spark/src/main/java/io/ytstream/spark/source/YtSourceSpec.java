package io.ytstream.spark.source;

import io.ytstream.application.CapBatchBytes;
import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.types.ColumnHints;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.TypeV3Options;
import io.ytstream.spark.types.YtTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A validated {@code yt} source: the queues exist, are queues (ordered tables), are mounted, share
 * one schema, and the consumer exists and is registered for each. Everything is checked when the
 * stream is loaded, before any batch runs, so bad input changes nothing.
 */
public record YtSourceSpec(
    ClusterRef cluster,
    ConsumerId consumer,
    List<QueueId> queues,
    List<ColumnSpec> columns,
    boolean includeServiceColumns,
    PlanLimits limits,
    TriggerLimit trigger,
    Optional<StartingOffsets> startingOffsets,
    boolean failOnDataLoss,
    boolean transactional,
    int realTimePartitionsPerTask) {

  public static YtSourceSpec resolve(YtOptions options, YtSettings settings) {
    YPath consumerPath = options.consumerPath();
    PlanLimits limits = options.planLimits();
    TriggerLimit trigger = options.triggerLimit();
    Optional<StartingOffsets> starting = options.streamStart();
    boolean failOnDataLoss = options.failOnDataLoss();
    int partitionsPerTask = options.realTimePartitionsPerTask();
    ClusterRef ref = settings.cluster(options);
    try (YtCluster cluster = ref.connect()) {
      ConsumerId consumer = new ConsumerId(cluster.name(), consumerPath);
      try {
        cluster.tableMetadata().describe(consumerPath);
      } catch (RuntimeException e) {
        throw UserInputErrors.describeFailed(consumerPath, "consumer (option consumer_path)", e);
      }
      Queues queues = Queues.describe(cluster, options, Optional.of(consumer));
      if (starting.isPresent() && starting.get() instanceof StartingOffsets.AtTimestamp) {
        queues.requireTimestamp("starting_timestamp");
      }
      if (limits.maxBytesPerPartition().isPresent() || trigger.maxBytes().isPresent()) {
        queues.requireCumulativeDataWeight(limits.maxBytesPerPartition(), trigger.maxBytes());
      }
      return new YtSourceSpec(
          ref,
          consumer,
          queues.ids(),
          queues.columns(),
          options.includeServiceColumns(),
          limits,
          trigger,
          starting,
          failOnDataLoss,
          settings.transactional(),
          partitionsPerTask);
    }
  }

  /**
   * The queues a read names, checked as the source checks them (queues, mounted, one schema;
   * registered for the consumer when there is one), and the columns a row of them has in Spark.
   */
  public record Queues(
      List<QueueId> ids, List<ColumnSpec> columns, List<TableDescription> described) {

    public static Queues describe(
        YtCluster cluster, YtOptions options, Optional<ConsumerId> consumer) {
      boolean typeV3 = TypeV3Options.reading(options);
      List<QueueId> queues = new ArrayList<>();
      List<Column> schema = null;
      YPath schemaOf = null;
      List<TableDescription> described = new ArrayList<>();
      for (YPath path : options.queuePaths()) {
        TableDescription d;
        try {
          d = cluster.tableMetadata().describe(path);
        } catch (RuntimeException e) {
          throw UserInputErrors.describeFailed(path, "queue", e);
        }
        described.add(d);
        if (d.sorted()) {
          throw new IllegalArgumentException(
              path
                  + " is a sorted dynamic table, not a queue: the yt source reads ordered dynamic"
                  + " tables (queues). Check the path given to load()");
        }
        List<Column> data = YtTypes.dataColumns(d);
        if (schema == null) {
          schema = data;
          schemaOf = path;
        } else if (!sameSchema(schema, data)) {
          throw new IllegalArgumentException(
              "queues "
                  + schemaOf
                  + " and "
                  + path
                  + " have different schemas ("
                  + schema
                  + " vs "
                  + data
                  + "): one stream reads queues of one schema; read them in separate streams");
        }
        QueueId queue = new QueueId(cluster.name(), path);
        checkReadable(cluster, consumer, queue);
        queues.add(queue);
      }
      List<String> paths = new ArrayList<>();
      queues.forEach(q -> paths.add(q.path().value()));
      List<ColumnSpec> columns =
          new ArrayList<>(
              ColumnHints.apply(
                  options.columnHints(),
                  schema,
                  typeV3,
                  (paths.size() == 1 ? "queue " : "queues ") + String.join(", ", paths)));
      if (options.includeServiceColumns()) {
        columns.addAll(YtTypes.systemColumns(described));
      }
      return new Queues(List.copyOf(queues), List.copyOf(columns), List.copyOf(described));
    }

    /**
     * Refuses a cap by bytes on a queue whose schema does not declare {@code
     * $cumulative_data_weight}: its rows carry no data weight to measure.
     */
    public void requireCumulativeDataWeight(OptionalLong perPartition, OptionalLong perTrigger) {
      List<String> set = new ArrayList<>(2);
      perPartition.ifPresent(v -> set.add("max_bytes_per_partition = " + v));
      perTrigger.ifPresent(v -> set.add("max_bytes_per_trigger = " + v));
      for (TableDescription d : described) {
        if (d.columns().stream().noneMatch(c -> c.name().equals("$cumulative_data_weight"))) {
          throw CapBatchBytes.missingColumn(String.join(" and ", set), d.path().value());
        }
      }
    }

    /** Refuses a position by time on a queue whose schema does not declare {@code $timestamp}. */
    public void requireTimestamp(String option) {
      for (TableDescription d : described) {
        if (d.columns().stream().noneMatch(c -> c.name().equals("$timestamp"))) {
          throw new IllegalArgumentException(
              "option "
                  + option
                  + " finds rows by their $timestamp, but queue "
                  + d.path()
                  + " does not declare $timestamp in its schema: use a row index"
                  + " (starting_offsets / ending_offsets), or create the queue with a"
                  + " {name=\"$timestamp\"; type=uint64} column");
        }
      }
    }
  }

  /**
   * Mounted, and the consumer registered: a pull of one row from partition 0 proves both (without a
   * consumer, a {@code pull_queue} proves the mount).
   */
  private static void checkReadable(
      YtCluster cluster, Optional<ConsumerId> consumer, QueueId queue) {
    List<PartitionBounds> partitions;
    try {
      partitions = cluster.queueMetadata().partitions(queue);
    } catch (RuntimeException e) {
      throw UserInputErrors.partitionsFailed(queue.path(), e);
    }
    if (partitions.isEmpty()) {
      throw new IllegalArgumentException("queue " + queue.path() + " has no tablets");
    }
    PartitionId first = new PartitionId(queue, 0);
    long offset = partitions.get(0).trimmedRowCount();
    try {
      if (consumer.isPresent()) {
        cluster.queueReader().pull(consumer.get(), first, offset, 1);
      } else {
        cluster.queueRangeReader().pull(first, offset, 1);
      }
    } catch (RuntimeException e) {
      throw consumer.isPresent()
          ? UserInputErrors.pullFailed(queue.path(), consumer.get().path(), e)
          : UserInputErrors.pullFailed(queue.path(), e);
    }
  }

  private static boolean sameSchema(List<Column> a, List<Column> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).name().equals(b.get(i).name())
          || !a.get(i).typeV3().equals(b.get(i).typeV3())) {
        return false;
      }
    }
    return true;
  }

  public boolean multiQueue() {
    return queues.size() > 1;
  }

  public StructType schema() {
    return schemaOf(columns, includeServiceColumns, multiQueue());
  }

  /** A queue row in Spark: its columns, then the service columns when asked for. */
  public static StructType schemaOf(
      List<ColumnSpec> columns, boolean includeServiceColumns, boolean multiQueue) {
    List<StructField> fields = new ArrayList<>();
    for (ColumnSpec c : columns) {
      fields.add(DataTypes.createStructField(c.name(), c.sparkType(), true));
    }
    if (includeServiceColumns) {
      fields.add(
          DataTypes.createStructField(ServiceColumns.TABLET_INDEX, DataTypes.LongType, false));
      fields.add(DataTypes.createStructField(ServiceColumns.ROW_INDEX, DataTypes.LongType, false));
      if (multiQueue) {
        fields.add(DataTypes.createStructField(ServiceColumns.QUEUE, DataTypes.StringType, false));
      }
    }
    return DataTypes.createStructType(fields);
  }
}
