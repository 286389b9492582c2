package io.ytstream.spark.batch;

import io.ytstream.spark.source.LostRowsMetric;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * The scan of a static read: the range is planned once, when Spark first asks for the batch's
 * partitions (Spark may ask the scan for its batch more than once). Trimmed rows skipped then
 * ({@code fail_on_data_loss=false}) are the driver's part of the {@code lostRows} SQL metric; the
 * tasks count those trimmed while they read.
 */
public final class YtBatchScan implements Scan {

  private final YtStaticReadSpec spec;
  private final AtomicLong plannedLostRows = new AtomicLong();
  private final AtomicReference<InputPartition[]> planned = new AtomicReference<>();

  public YtBatchScan(YtStaticReadSpec spec) {
    this.spec = spec;
  }

  @Override
  public StructType readSchema() {
    return spec.schema();
  }

  @Override
  public String description() {
    return "yt" + spec.queues() + " [" + spec.start() + ", " + spec.end() + ")";
  }

  @Override
  public Batch toBatch() {
    return new YtBatch(spec, plannedLostRows, planned);
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {new LostRowsMetric()};
  }

  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    return new CustomTaskMetric[] {LostRowsMetric.taskValue(plannedLostRows.get())};
  }
}
