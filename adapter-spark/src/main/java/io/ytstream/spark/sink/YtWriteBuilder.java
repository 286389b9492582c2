package io.ytstream.spark.sink;

import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.HadoopConfs;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.SplitSourceQueries;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.realtime.RealTimeQueries;
import io.ytstream.spark.types.TypeV3Options;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.internal.connector.SupportsStreamingUpdateAsAppend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the sink. Spark calls {@link #build()} when the query starts, so the output table and the
 * DataFrame's schema are checked before the first batch. Output modes: append, and update (rows are
 * appended to an ordered table or upserted into a sorted one); complete mode and batch overwrite
 * would need to empty the table and are refused with a message saying so.
 *
 * <p>With option {@code producer_path} a streaming write into a queue pushes each task's share of a
 * batch through a queue producer session of its own (exactly once without a batch transaction); the
 * producer and the output are checked here, and the query's plan is searched for non-deterministic
 * expressions, which are reported as a warning.
 */
public final class YtWriteBuilder implements SupportsTruncate, SupportsStreamingUpdateAsAppend {

  private static final Logger LOG = LoggerFactory.getLogger(YtWriteBuilder.class);

  private final LogicalWriteInfo info;
  private final YtOptions options;
  private final YtSettings settings;

  public YtWriteBuilder(LogicalWriteInfo info) {
    this.info = info;
    this.options = YtOptions.of(info.options().asCaseSensitiveMap());
    this.settings = YtSettings.of(SparkSession.active());
  }

  @Override
  public WriteBuilder truncate() {
    throw new IllegalArgumentException(
        "the yt sink cannot replace the contents of "
            + options.get(YtOptions.PATH).orElse("the output table")
            + ": outputMode(\"complete\") and mode(\"overwrite\") are not supported. Use"
            + " outputMode(\"append\"), or outputMode(\"update\") with a sorted output table"
            + " (rows are upserted by key); for a static write use mode(\"append\")");
  }

  @Override
  public Write build() {
    YtWriteSpec spec;
    ClusterRef ref = settings.cluster(options);
    Optional<YPath> producer = options.producerPath();
    try (YtCluster cluster = ref.connect()) {
      Optional<TableDescription> staticTable = StaticOutputs.describe(cluster, options);
      if (staticTable.isPresent()) {
        StaticOutputs.check(options, producer);
        YtWriteSpec staticSpec =
            YtWriteSpec.checkStatic(
                ref,
                staticTable.get(),
                info.schema(),
                settings.dynBatchSize(),
                TypeV3Options.writing(options),
                options.outputTabletKey());
        return staticWrite(staticSpec);
      }
      TableDescription table;
      try {
        table = cluster.tableMetadata().describe(options.outputPath());
      } catch (RuntimeException e) {
        throw UserInputErrors.describeFailed(options.outputPath(), "output table (option path)", e);
      }
      if (producer.isPresent()) {
        ProducerSinkChecks.check(cluster, producer.get(), table, settings.transactional());
      }
      spec =
          YtWriteSpec.check(
              ref,
              table,
              info.schema(),
              settings.dynBatchSize(),
              TypeV3Options.writing(options),
              options.outputTabletKey());
    }
    return new Write() {
      @Override
      public String description() {
        return "yt[" + spec.path() + "]";
      }

      @Override
      public BatchWrite toBatch() {
        if (producer.isPresent()) {
          throw ProducerSinkChecks.staticWrite(producer.get());
        }
        return new YtBatchWrite(spec);
      }

      @Override
      public StreamingWrite toStreaming() {
        SparkSession spark = SparkSession.active();
        RealTimeQueries.checkSink(spec.path().value(), settings.transactional());
        Configuration conf = HadoopConfs.forSession(spark);
        if (producer.isPresent()) {
          Optional<TaskSplit> split = SplitSourceQueries.splitOfThisQuery();
          if (split.isPresent()) {
            throw ProducerSinkChecks.splitSource(producer.get(), split.get());
          }
          if (CheckedQueries.firstTime(info.queryId())) {
            warnIfNondeterministic(spark, producer.get());
          }
          return new ProducerStreamingWrite(
              spec,
              ProducerTarget.of(
                  producer.get(),
                  info.queryId(),
                  settings.maxRowsPerTabletPerTransaction(),
                  settings.transactionTimeout()),
              options.checkpointLocation().map(Path::new).orElse(null),
              conf);
        }
        if (!settings.transactional()) {
          return new ChunkedStreamingWrite(spec);
        }
        return new TransactionalStreamingWrite(
            spec, settings, checkpointRoot(), conf, BatchWriteJobListener.on(spark.sparkContext()));
      }
    };
  }

  /**
   * A stream into a static table: exactly once, each batch's rows and its record appended in one
   * master transaction ({@link StaticTableStreamingWrite}); a batch write ({@code df.write}) is not
   * served.
   */
  private Write staticWrite(YtWriteSpec spec) {
    return new Write() {
      @Override
      public String description() {
        return "yt[" + spec.path() + ", static]";
      }

      @Override
      public BatchWrite toBatch() {
        throw StaticOutputs.batchWrite(spec.path());
      }

      @Override
      public StreamingWrite toStreaming() {
        SparkSession spark = SparkSession.active();
        RealTimeQueries.checkStaticTableSink(spec.path().value());
        return new StaticTableStreamingWrite(
            spec,
            settings,
            StaticOutputs.checkpointRoot(options, spec.path()),
            HadoopConfs.forSession(spark),
            info.queryId(),
            BatchWriteJobListener.on(spark.sparkContext()));
      }
    };
  }

  /**
   * Exactly once through producer sessions needs the same rows in the same task when a batch runs
   * again; a non-deterministic expression may change them. Warned, not refused: a share the session
   * already holds is never pushed again, whatever this attempt computes.
   */
  private void warnIfNondeterministic(SparkSession spark, YPath producer) {
    Optional<List<String>> found = PlanDeterminism.nondeterministic(spark, info.queryId());
    if (found.isEmpty()) {
      LOG.info(
          "option producer_path = '{}': the query's plan could not be read, so it was not checked"
              + " for non-deterministic expressions",
          producer);
    } else if (!found.get().isEmpty()) {
      LOG.warn(
          "option producer_path = '{}': the query has non-deterministic expressions {}. Exactly"
              + " once through producer sessions needs the same rows in the same task partition"
              + " when a batch runs again: a replayed task whose share the session holds pushes"
              + " nothing (the queue keeps the first attempt's rows), but if {} decides which"
              + " task a row goes to (repartition by it), a replayed row may land in another task"
              + " and be written twice. Compute such values from the row (e.g. a hash of its"
              + " columns) to make the query deterministic",
          producer,
          found.get(),
          found.get().size() == 1 ? "it" : "one of them");
    }
  }

  private Path checkpointRoot() {
    if (options.checkpointLocation().isPresent()) {
      return new Path(options.checkpointLocation().get());
    }
    throw new IllegalArgumentException(
        "spark.yt.streaming.transactional=true needs the checkpoint location as an option of"
            + " writeStream, e.g. .option(\"checkpointLocation\", \"yt:///home/ckpt\"): the sink"
            + " reads the batch's offsets from it");
  }
}
