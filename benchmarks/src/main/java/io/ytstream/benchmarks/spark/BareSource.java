package io.ytstream.benchmarks.spark;

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
 * The bare DataSource V2 micro-batch source of the read-path benchmark: it reads the pre-built rows
 * of {@link BareRows} and does nothing else, so its throughput is the limit a real source is
 * measured against. Options: {@code name} (the {@link BareRows} set), {@code rows_per_batch} (rows
 * per partition per batch; default: everything in one batch) and {@code build_rows} (true: build
 * each Spark row from the stored values, a long and UTF-8 bytes, into one reused row, as any source
 * that does not hold Spark's rows must; default false). Used as {@code
 * format(BareSource.class.getName())}.
 */
public final class BareSource implements TableProvider {

  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("payload", DataTypes.StringType, false);

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new BareTable();
  }

  private static final class BareTable implements SupportsRead {
    @Override
    public String name() {
      return "bare";
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
      String name = options.get("name");
      long perBatch = options.getLong("rows_per_batch", Long.MAX_VALUE);
      boolean buildRows = options.getBoolean("build_rows", false);
      return () ->
          new Scan() {
            @Override
            public StructType readSchema() {
              return SCHEMA;
            }

            @Override
            public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
              return new BareMicroBatchStream(name, perBatch, buildRows);
            }
          };
    }
  }
}
