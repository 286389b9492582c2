package io.ytstream.benchmarks.latency;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The limit of the latency benchmark: a bare Real-time Mode source over the pre-built rows of
 * {@link PacedRows}. Row g (global number) is due at {@code start_us + g / rate}; a task parks
 * until its next row is due and hands it out at once with {@code sent_us} = the due time, so the
 * source itself adds nothing but a thread wake-up. Options: {@code name}, {@code partitions},
 * {@code rows_per_partition}, {@code rate} (rows per second over all partitions), {@code start_us}.
 * Used as {@code format(PacedSource.class.getName())} with {@code Trigger.RealTime}.
 */
public final class PacedSource implements TableProvider {

  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add(LatencyRecorder.SENT_COLUMN, DataTypes.LongType, false);

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new PacedTable();
  }

  private static final class PacedTable implements SupportsRead {
    @Override
    public String name() {
      return "paced";
    }

    @Override
    public StructType schema() {
      return SCHEMA;
    }

    @Override
    public Set<TableCapability> capabilities() {
      return Set.of(TableCapability.MICRO_BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
      PacedPlan plan =
          new PacedPlan(
              options.get("name"),
              options.getInt("partitions", 2),
              options.getLong("rows_per_partition", 0),
              options.getDouble("rate", 1000),
              options.getLong("start_us", 0));
      return () ->
          new Scan() {
            @Override
            public StructType readSchema() {
              return SCHEMA;
            }

            @Override
            public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
              return new PacedStream(plan);
            }
          };
    }
  }
}
