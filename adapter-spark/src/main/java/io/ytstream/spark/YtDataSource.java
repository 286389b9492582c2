package io.ytstream.spark;

import io.ytstream.spark.batch.YtStaticReadSpec;
import io.ytstream.spark.checkpoint.YtFileSystem;
import io.ytstream.spark.config.OptionScope;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.source.YtSourceSpec;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code yt} data source: {@code spark.readStream.format("yt").option("consumer_path",
 * "//c").load("//q")}, a static read of a range {@code spark.read.format("yt").load("//q")}, and
 * {@code writeStream.format("yt").option("path", "//out")}.
 *
 * <p>Reading infers the schema from the queue and checks the source (queue, mount, consumer,
 * options) at {@code load()}, so bad input fails before any query starts. Writing takes the
 * DataFrame's schema ({@link #supportsExternalMetadata()}) and checks it against the output table
 * when the query starts.
 */
public final class YtDataSource implements TableProvider, DataSourceRegister {

  public YtDataSource() {
    SparkSession.getActiveSession()
        .foreach(
            spark -> {
              YtFileSystem.register(spark.sparkContext().hadoopConfiguration());
              return null;
            });
  }

  @Override
  public String shortName() {
    return "yt";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    YtOptions opts = YtOptions.of(options.asCaseSensitiveMap(), OptionScope.READ);
    if (!opts.hasConsumerPath()) {
      // A static read, or a stream that will be told at its start that it needs a consumer.
      return YtStaticReadSpec.schema(opts, YtSettings.of(SparkSession.active()));
    }
    return YtSourceSpec.resolve(opts, YtSettings.of(SparkSession.active())).schema();
  }

  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    // Reads and writes both come here first (writeStream().start() on the caller's thread): an
    // option neither the source nor the sink knows fails before a query starts.
    YtOptions.of(properties);
    return new YtTable(schema, properties);
  }
}
