package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a task's ranges with short pulls through the consumer, checking that row indexes are
 * contiguous: a gap at the start of a pull means rows were trimmed before being read (data loss,
 * failing the task unless {@code fail_on_data_loss=false}); a gap anywhere else is an error.
 */
final class YtPartitionReader implements PartitionReader<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtPartitionReader.class);
  static final int PULL_ROWS = 10_000;

  private final YtCluster cluster;
  private final ConsumerId consumer;
  private final Iterator<OffsetRange> ranges;
  private final QueueRowConverter converter;
  private final boolean failOnDataLoss;

  private OffsetRange range;
  private long next;

  /** The rows of the last pull; {@code [bufferNext, bufferEnd)} are still to be returned. */
  private List<QueueRow> buffer = List.of();

  private int bufferNext;
  private int bufferEnd;
  private InternalRow current;

  YtPartitionReader(
      YtCluster cluster,
      ConsumerId consumer,
      List<OffsetRange> ranges,
      List<ColumnSpec> columns,
      boolean includeServiceColumns,
      boolean multiQueue,
      boolean failOnDataLoss) {
    this.cluster = cluster;
    this.consumer = consumer;
    this.ranges = ranges.iterator();
    this.converter = new QueueRowConverter(columns, includeServiceColumns, multiQueue);
    this.failOnDataLoss = failOnDataLoss;
  }

  @Override
  public boolean next() {
    while (true) {
      if (bufferNext < bufferEnd) {
        QueueRow row = buffer.get(bufferNext++);
        if (row.rowIndex() != next) {
          throw new IllegalStateException(
              "rows of "
                  + range.partition()
                  + " are not contiguous: expected $row_index "
                  + next
                  + ", got "
                  + row.rowIndex());
        }
        next++;
        current = converter.convert(range.partition(), row);
        return true;
      }
      if (range == null || next >= range.upper()) {
        if (!ranges.hasNext()) {
          return false;
        }
        range = ranges.next();
        next = range.lower();
        continue;
      }
      pull();
    }
  }

  private void pull() {
    int want = (int) Math.min(PULL_ROWS, range.upper() - next);
    List<QueueRow> rows;
    try {
      rows = cluster.queueReader().pull(consumer, range.partition(), next, want);
    } catch (RuntimeException e) {
      throw YtErrors.pullFailed(range.partition().queue().path(), consumer.path(), e);
    }
    long first = rows.isEmpty() ? range.upper() : Math.min(rows.get(0).rowIndex(), range.upper());
    if (first > next) {
      DataLoss loss = new DataLoss(range.partition(), next, first);
      if (failOnDataLoss) {
        throw new DataLossException(List.of(loss));
      }
      LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss);
      next = first;
    }
    // Rows at or past the range's end belong to a later batch: the buffer stops before the first.
    int end = rows.size();
    while (end > 0 && rows.get(end - 1).rowIndex() >= range.upper()) {
      end--;
    }
    buffer = rows instanceof RandomAccess ? rows : new ArrayList<>(rows);
    bufferNext = 0;
    bufferEnd = end;
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {
    cluster.close();
  }
}
