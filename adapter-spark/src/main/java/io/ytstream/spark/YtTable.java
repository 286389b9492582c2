package io.ytstream.spark;

import io.ytstream.spark.batch.YtBatchScan;
import io.ytstream.spark.batch.YtStaticReadSpec;
import io.ytstream.spark.checkpoint.HadoopConfs;
import io.ytstream.spark.config.OptionScope;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.sink.YtWriteBuilder;
import io.ytstream.spark.source.LostRowsMetric;
import io.ytstream.spark.source.YtMicroBatchStream;
import io.ytstream.spark.source.YtSourceSpec;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A queue to read (a stream or a static read of a range) or a dynamic table to write. */
final class YtTable implements SupportsRead, SupportsWrite {

  private final StructType schema;
  private final Map<String, String> properties;

  YtTable(StructType schema, Map<String, String> properties) {
    this.schema = schema;
    this.properties = Map.copyOf(properties);
  }

  @Override
  public String name() {
    return "yt:" + properties.getOrDefault("path", "?");
  }

  @Override
  @SuppressWarnings("deprecation") // columns() is newer; schema() works on Spark 4.1 and 4.2
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(
        TableCapability.MICRO_BATCH_READ,
        TableCapability.BATCH_READ,
        TableCapability.STREAMING_WRITE,
        TableCapability.BATCH_WRITE,
        TableCapability.TRUNCATE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    YtOptions opts = YtOptions.of(options.asCaseSensitiveMap(), OptionScope.READ);
    return () -> new YtScan(opts);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    // A read's option on a write is refused here, before the sink looks at anything.
    YtOptions.of(info.options().asCaseSensitiveMap(), OptionScope.WRITE);
    return new YtWriteBuilder(info);
  }

  /**
   * The scan of a stream or of a static read (Spark asks for one or the other); the source is
   * validated again when the query or the read starts. Without {@code consumer_path} the schema is
   * the queues' as a static read sees them.
   */
  private static final class YtScan implements Scan {
    private final YtOptions options;
    private YtSourceSpec spec;
    private YtBatchScan staticScan;

    YtScan(YtOptions options) {
      this.options = options;
    }

    private YtSourceSpec spec() {
      if (spec == null) {
        spec = YtSourceSpec.resolve(options, YtSettings.of(SparkSession.active()));
      }
      return spec;
    }

    private YtBatchScan staticScan() {
      if (staticScan == null) {
        staticScan =
            new YtBatchScan(
                YtStaticReadSpec.resolve(options, YtSettings.of(SparkSession.active())));
      }
      return staticScan;
    }

    @Override
    public StructType readSchema() {
      if (!options.hasConsumerPath()) {
        return YtStaticReadSpec.schema(options, YtSettings.of(SparkSession.active()));
      }
      return spec().schema();
    }

    @Override
    public Batch toBatch() {
      return staticScan().toBatch();
    }

    @Override
    public CustomTaskMetric[] reportDriverMetrics() {
      return staticScan == null ? new CustomTaskMetric[0] : staticScan.reportDriverMetrics();
    }

    @Override
    public String description() {
      return "yt" + options.get(YtOptions.PATH).map(p -> "[" + p + "]").orElse("");
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
      return new CustomMetric[] {new LostRowsMetric()};
    }

    @Override
    public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
      options.checkStreaming();
      SparkSession spark = SparkSession.active();
      return new YtMicroBatchStream(spec(), checkpointLocation, HadoopConfs.forSession(spark));
    }
  }
}
