package io.ytstream.spark.sink;

import io.ytstream.application.OutputTablets;
import io.ytstream.ports.Row;
import io.ytstream.spark.types.CatalystGetter;
import io.ytstream.spark.types.ColumnSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A writer task's rows in YTsaurus' form: the columns converted by type, and for an ordered output
 * the {@code $tablet_index} that {@link OutputTablets} gives row k of task partition p.
 */
final class SinkRows {

  private final YtWriteSpec spec;
  private final int partitionId;
  private final ColumnSpec[] columns;

  /** Per column, how its Catalyst value is read: chosen once, not per value. */
  private final CatalystGetter[] getters;

  SinkRows(YtWriteSpec spec, int partitionId) {
    this.spec = spec;
    this.partitionId = partitionId;
    this.columns = spec.columns().toArray(new ColumnSpec[0]);
    this.getters = new CatalystGetter[columns.length];
    for (int i = 0; i < columns.length; i++) {
      getters[i] = CatalystGetter.of(columns[i].sparkType());
    }
  }

  /** The output tablet of the task's row {@code rowNumber} (0 for a sorted output: by key). */
  int tabletOf(long rowNumber) {
    return spec.sorted() ? 0 : OutputTablets.forRow(partitionId, rowNumber, spec.tabletCount());
  }

  /** One counter per tablet of an ordered output; one for a sorted output. */
  long[] newTabletCounters() {
    return new long[spec.sorted() ? 1 : spec.tabletCount()];
  }

  /** The row converted, with {@code tablet} as its {@code $tablet_index} on an ordered output. */
  Row toYtRow(InternalRow record, int tablet) {
    Map<String, Object> values = new LinkedHashMap<>();
    convertInto(values, record);
    if (!spec.sorted()) {
      values.put("$tablet_index", (long) tablet);
    }
    return Row.of(values);
  }

  void convertInto(Map<String, Object> values, InternalRow record) {
    for (int i = 0; i < columns.length; i++) {
      Object raw = record.isNullAt(i) ? null : getters[i].get(record, i);
      columns[i].writeInto(values, raw);
    }
  }
}
