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
 * {@code rows_per_partition}, {@code rate} (rows per second over all partitions), {@code start_us},
 * and {@code service_columns}: when true, each row also carries its source position (partition and
 * index) in the yt source's service columns, which {@code YtExactlyOnceForeachWriter} keys by, so
 * the limit can run with the same sink as each of our variants. Used as {@code
 * format(PacedSource.class.getName())} with {@code Trigger.RealTime}.
 */
public final class PacedSource implements TableProvider {

  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add(LatencyRecorder.SENT_COLUMN, DataTypes.LongType, false);

  /** {@link #SCHEMA} and the source position, in the columns the yt source names it. */
  static final StructType WITH_SERVICE_COLUMNS =
      SCHEMA
          .add(LatencyBench.TABLET_INDEX, DataTypes.LongType, false)
          .add(LatencyBench.ROW_INDEX, DataTypes.LongType, false);

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return options.getBoolean("service_columns", false) ? WITH_SERVICE_COLUMNS : SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new PacedTable(schema);
  }

  private record PacedTable(StructType schema) implements SupportsRead {
    @Override
    public String name() {
      return "paced";
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
              return schema;
            }

            @Override
            public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
              return new PacedStream(plan);
            }
          };
    }
  }
}
