package io.ytstream.benchmarks.spark;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;

/**
 * The stream of {@link BareSource}: the offset is how many rows of every partition were handed out;
 * a batch hands out up to {@code rows_per_batch} more of each partition.
 */
final class BareMicroBatchStream
    implements MicroBatchStream, SupportsAdmissionControl, SupportsTriggerAvailableNow {

  private final String name;
  private final long perBatch;
  private final long rowsPerPartition;
  private long availableNowEnd = -1;

  BareMicroBatchStream(String name, long perBatch) {
    this.name = name;
    this.perBatch = perBatch;
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
      out[p] = new Slice(name, p, (int) from, (int) to);
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

  /** Rows {@code [from, to)} of one partition. */
  record Slice(String name, int partition, int from, int to) implements InputPartition {}

  private static final class ReaderFactory implements PartitionReaderFactory, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      Slice slice = (Slice) partition;
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
}
