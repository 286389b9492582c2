package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import java.util.Iterator;
import java.util.List;
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
  private Iterator<QueueRow> buffer = List.<QueueRow>of().iterator();
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
      if (buffer.hasNext()) {
        QueueRow row = buffer.next();
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
    buffer = rows.stream().filter(r -> r.rowIndex() < range.upper()).iterator();
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
