package io.ytstream.spark.types;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.RowLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
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

  /** {@link #convertReusing}'s row and its values. */
  private transient GenericInternalRow reused;

  private transient Object[] reusedValues;

  /** {@link #convertReusing(PartitionId, QueueRowBatch, int)}'s row: longs held unboxed. */
  private transient SpecificInternalRow reusedSpecific;

  /** The queue path of the last multi-queue row, as Spark's string; immutable, as positions. */
  private transient QueuePath lastPath;

  private record QueuePath(String text, UTF8String spark) {}

  /** Where each column's value is in rows of {@code layout} (-1: not a data value there). */
  private record Positions(RowLayout layout, int[] ofColumn) {}

  public QueueRowConverter(
      List<ColumnSpec> columns, boolean includeServiceColumns, boolean multiQueue) {
    this.columns = columns.toArray(new ColumnSpec[0]);
    this.includeServiceColumns = includeServiceColumns;
    this.multiQueue = multiQueue;
  }

  public InternalRow convert(PartitionId partition, QueueRow row) {
    Object[] values = new Object[width()];
    fill(values, partition, row);
    return new GenericInternalRow(values);
  }

  /**
   * As {@link #convert}, into one row this converter keeps and overwrites on the next call: for a
   * reader whose row Spark uses before asking for the next (a {@code PartitionReader}'s {@code
   * get()}; Spark copies a row it keeps, as readers reuse theirs), saving two objects per row.
   */
  public InternalRow convertReusing(PartitionId partition, QueueRow row) {
    GenericInternalRow reused = this.reused;
    if (reused == null) {
      reusedValues = new Object[width()];
      reused = new GenericInternalRow(reusedValues);
      this.reused = reused;
    }
    fill(reusedValues, partition, row);
    return reused;
  }

  /**
   * As {@link #convertReusing(PartitionId, QueueRow)}, for row {@code row} of {@code batch}, into a
   * row of primitive fields where the type allows: what the batch holds unboxed (int64s, text as
   * bytes of the answer) goes in without a box, a copy or the port's row object.
   */
  public InternalRow convertReusing(PartitionId partition, QueueRowBatch batch, int row) {
    SpecificInternalRow out = reusedSpecific;
    if (out == null) {
      out = new SpecificInternalRow(schema());
      reusedSpecific = out;
    }
    int[] at = positionsFor(batch.layout(row));
    int n = columns.length;
    for (int i = 0; i < n; i++) {
      columns[i].readInto(batch, row, at[i], out, i);
    }
    if (includeServiceColumns) {
      out.setLong(n, batch.tabletIndex(row));
      out.setLong(n + 1, batch.rowIndex(row));
      if (multiQueue) {
        out.update(n + 2, queuePath(partition));
      }
    }
    return out;
  }

  private StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (ColumnSpec c : columns) {
      fields.add(DataTypes.createStructField(c.name(), c.sparkType(), true));
    }
    if (includeServiceColumns) {
      fields.add(DataTypes.createStructField("$tablet_index", DataTypes.LongType, false));
      fields.add(DataTypes.createStructField("$row_index", DataTypes.LongType, false));
      if (multiQueue) {
        fields.add(DataTypes.createStructField("$queue_path", DataTypes.StringType, false));
      }
    }
    return DataTypes.createStructType(fields);
  }

  private int width() {
    return columns.length + (includeServiceColumns ? (multiQueue ? 3 : 2) : 0);
  }

  private void fill(Object[] values, PartitionId partition, QueueRow row) {
    int[] at = positionsFor(row.data().layout());
    int n = columns.length;
    for (int i = 0; i < n; i++) {
      values[i] = columns[i].read(row, at[i]);
    }
    if (includeServiceColumns) {
      values[n] = (long) row.tabletIndex();
      values[n + 1] = row.rowIndex();
      if (multiQueue) {
        values[n + 2] = queuePath(partition);
      }
    }
  }

  /** The queue's path as Spark's string, made once per queue rather than per row. */
  private UTF8String queuePath(PartitionId partition) {
    String path = partition.queue().path().value();
    QueuePath known = lastPath;
    if (known == null || !known.text().equals(path)) {
      known = new QueuePath(path, UTF8String.fromString(path));
      lastPath = known;
    }
    return known.spark();
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
