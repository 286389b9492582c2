package io.ytstream.spark.types;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.RowLayout;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A queue row as the source's Spark row: the data columns, then (with {@code
 * include_service_columns}) the tablet index, the row index and, when one stream reads several
 * queues, the queue path. Shared by the micro-batch and the real-time readers, so both produce one
 * layout.
 *
 * <p>Columns are read by position: the positions are resolved once per {@link RowLayout} (rows of
 * one table share theirs) and kept until a row of another layout arrives.
 */
public final class QueueRowConverter implements Serializable {

  private static final long serialVersionUID = 2L;

  private final ColumnSpec[] columns;
  private final boolean includeServiceColumns;
  private final boolean multiQueue;

  /** The positions for the layout seen last; immutable, so a racing reader sees a whole one. */
  private transient Positions positions;

  /** Where each column's value is in rows of {@code layout} (-1: not a data value there). */
  private record Positions(RowLayout layout, int[] ofColumn) {}

  public QueueRowConverter(
      List<ColumnSpec> columns, boolean includeServiceColumns, boolean multiQueue) {
    this.columns = columns.toArray(new ColumnSpec[0]);
    this.includeServiceColumns = includeServiceColumns;
    this.multiQueue = multiQueue;
  }

  public InternalRow convert(PartitionId partition, QueueRow row) {
    int[] at = positionsFor(row.data().layout());
    int n = columns.length;
    int extra = includeServiceColumns ? (multiQueue ? 3 : 2) : 0;
    Object[] values = new Object[n + extra];
    for (int i = 0; i < n; i++) {
      values[i] = columns[i].read(row, at[i]);
    }
    if (includeServiceColumns) {
      values[n] = (long) row.tabletIndex();
      values[n + 1] = row.rowIndex();
      if (multiQueue) {
        values[n + 2] = UTF8String.fromString(partition.queue().path().value());
      }
    }
    return new GenericInternalRow(values);
  }

  private int[] positionsFor(RowLayout layout) {
    Positions known = positions;
    if (known != null && known.layout() == layout) {
      return known.ofColumn();
    }
    int[] ofColumn = new int[columns.length];
    for (int i = 0; i < columns.length; i++) {
      ofColumn[i] = columns[i].positionIn(layout);
    }
    positions = new Positions(layout, ofColumn);
    return ofColumn;
  }
}
