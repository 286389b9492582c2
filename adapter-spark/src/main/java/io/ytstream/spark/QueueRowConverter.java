package io.ytstream.spark;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A queue row as the source's Spark row: the data columns, then (with {@code
 * include_service_columns}) the tablet index, the row index and, when one stream reads several
 * queues, the queue path. Shared by the micro-batch and the real-time readers, so both produce one
 * layout.
 */
final class QueueRowConverter implements Serializable {

  private static final long serialVersionUID = 1L;

  private final ArrayList<ColumnSpec> columns;
  private final boolean includeServiceColumns;
  private final boolean multiQueue;

  QueueRowConverter(List<ColumnSpec> columns, boolean includeServiceColumns, boolean multiQueue) {
    this.columns = new ArrayList<>(columns);
    this.includeServiceColumns = includeServiceColumns;
    this.multiQueue = multiQueue;
  }

  InternalRow convert(PartitionId partition, QueueRow row) {
    int extra = includeServiceColumns ? (multiQueue ? 3 : 2) : 0;
    Object[] values = new Object[columns.size() + extra];
    for (int i = 0; i < columns.size(); i++) {
      values[i] = columns.get(i).read(row);
    }
    if (includeServiceColumns) {
      values[columns.size()] = (long) row.tabletIndex();
      values[columns.size() + 1] = row.rowIndex();
      if (multiQueue) {
        values[columns.size() + 2] = UTF8String.fromString(partition.queue().path().value());
      }
    }
    return new GenericInternalRow(values);
  }
}
