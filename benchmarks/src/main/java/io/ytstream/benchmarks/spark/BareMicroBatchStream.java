package io.ytstream.benchmarks.spark;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The stream of {@link BareSource}: the offset is how many rows of every partition were handed out;
 * a batch hands out up to {@code rows_per_batch} more of each partition.
 */
final class BareMicroBatchStream
    implements MicroBatchStream, SupportsAdmissionControl, SupportsTriggerAvailableNow {

  private final String name;
  private final long perBatch;
  private final long rowsPerPartition;
  private final boolean buildRows;
  private long availableNowEnd = -1;

  BareMicroBatchStream(String name, long perBatch, boolean buildRows) {
    this.name = name;
    this.perBatch = perBatch;
    this.buildRows = buildRows;
    this.rowsPerPartition = BareRows.rowsPerPartition(name);
  }

  @Override
  public Offset initialOffset() {
    return new RowOffset(0);
  }

  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException("Spark calls latestOffset(start, limit)");
  }

  @Override
  public Offset latestOffset(Offset start, ReadLimit limit) {
    long from = ((RowOffset) start).rows;
    long end = availableNowEnd >= 0 ? availableNowEnd : rowsPerPartition;
    return new RowOffset(Math.min(end, from + Math.min(perBatch, end - from)));
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return ReadLimit.allAvailable();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    availableNowEnd = rowsPerPartition;
  }

  @Override
  public InputPartition[] planInputPartitions(Offset start, Offset end) {
    long from = ((RowOffset) start).rows;
    long to = ((RowOffset) end).rows;
    int partitions = BareRows.partitions(name);
    InputPartition[] out = new InputPartition[partitions];
    for (int p = 0; p < partitions; p++) {
      out[p] = new Slice(name, p, (int) from, (int) to, buildRows);
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new ReaderFactory();
  }

  @Override
  public Offset deserializeOffset(String json) {
    return new RowOffset(Long.parseLong(json.trim()));
  }

  @Override
  public void commit(Offset end) {}

  @Override
  public void stop() {}

  /** Rows handed out per partition. */
  static final class RowOffset extends Offset {
    final long rows;

    RowOffset(long rows) {
      this.rows = rows;
    }

    @Override
    public String json() {
      return Long.toString(rows);
    }
  }

  /** Rows {@code [from, to)} of one partition, handed out pre-built or built from stored values. */
  record Slice(String name, int partition, int from, int to, boolean buildRows)
      implements InputPartition {}

  private static final class ReaderFactory implements PartitionReaderFactory, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      Slice slice = (Slice) partition;
      if (slice.buildRows()) {
        return new BuildingReader(slice);
      }
      InternalRow[] rows = BareRows.partition(slice.name(), slice.partition());
      return new PartitionReader<>() {
        private int next = slice.from() - 1;

        @Override
        public boolean next() {
          next++;
          return next < slice.to();
        }

        @Override
        public InternalRow get() {
          return rows[next];
        }

        @Override
        public void close() {}
      };
    }
  }

  /** Builds each row from the stored id and payload bytes into one row it reuses. */
  private static final class BuildingReader implements PartitionReader<InternalRow> {
    private final long[] ids;
    private final byte[][] payloads;
    private final int to;
    private final SpecificInternalRow row = new SpecificInternalRow(BareSource.SCHEMA);
    private int next;

    BuildingReader(Slice slice) {
      BareRows.StoredValues values = BareRows.values(slice.name());
      this.ids = values.ids()[slice.partition()];
      this.payloads = values.payloads()[slice.partition()];
      this.to = slice.to();
      this.next = slice.from() - 1;
    }

    @Override
    public boolean next() {
      next++;
      if (next >= to) {
        return false;
      }
      row.setLong(0, ids[next]);
      row.update(1, UTF8String.fromBytes(payloads[next]));
      return true;
    }

    @Override
    public InternalRow get() {
      return row;
    }

    @Override
    public void close() {}
  }
}
