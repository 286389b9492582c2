package io.ytstream.spark.sink;

import io.ytstream.ports.TableDescription;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.HadoopConfs;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.realtime.RealTimeQueries;
import io.ytstream.spark.types.TypeV3Options;
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

/**
 * Builds the sink. Spark calls {@link #build()} when the query starts, so the output table and the
 * DataFrame's schema are checked before the first batch. Output modes: append, and update (rows are
 * appended to an ordered table or upserted into a sorted one); complete mode and batch overwrite
 * would need to empty the table and are refused with a message saying so.
 */
public final class YtWriteBuilder implements SupportsTruncate, SupportsStreamingUpdateAsAppend {

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
    try (YtCluster cluster = ref.connect()) {
      TableDescription table;
      try {
        table = cluster.tableMetadata().describe(options.outputPath());
      } catch (RuntimeException e) {
        throw UserInputErrors.describeFailed(options.outputPath(), "output table (option path)", e);
      }
      spec =
          YtWriteSpec.check(
              ref, table, info.schema(), settings.dynBatchSize(), TypeV3Options.writing(options));
    }
    return new Write() {
      @Override
      public String description() {
        return "yt[" + spec.path() + "]";
      }

      @Override
      public BatchWrite toBatch() {
        return new YtBatchWrite(spec);
      }

      @Override
      public StreamingWrite toStreaming() {
        SparkSession spark = SparkSession.active();
        RealTimeQueries.checkSink(spec.path().value(), settings.transactional());
        Configuration conf = HadoopConfs.forSession(spark);
        Path checkpoint = settings.transactional() ? checkpointRoot() : null;
        BatchWriteJobListener writeJobs =
            settings.transactional() ? BatchWriteJobListener.on(spark.sparkContext()) : null;
        return new YtStreamingWrite(spec, settings, checkpoint, conf, writeJobs);
      }
    };
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
