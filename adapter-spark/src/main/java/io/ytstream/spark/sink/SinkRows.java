package io.ytstream.spark.sink;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.spark.types.CatalystGetter;
import io.ytstream.spark.types.ColumnSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A writer task's rows in YTsaurus' form: the columns converted by type, and for an ordered output
 * the {@code $tablet_index} that {@link OutputTablets} gives row k of task partition p, or the one
 * the job chose for the row ({@link ChosenOutputTablet}: the DataFrame's own {@code $tablet_index},
 * or the hash of the {@code output_tablet_key} columns' values as written).
 */
final class SinkRows {

  private static final String TABLET_INDEX = "$tablet_index";

  private final YtWriteSpec spec;
  private final int partitionId;
  private final ColumnSpec[] columns;

  /** Per column, how its Catalyst value is read: chosen once, not per value. */
  private final CatalystGetter[] getters;

  /** The columns that are written, in order, and the layout of the rows they make. */
  private final int[] written;

  private final RowLayout layout;

  /** Where {@code $tablet_index} goes in {@link #layout}; -1 for a sorted or static output. */
  private final int tabletPosition;

  /** The DataFrame's {@code $tablet_index} column, when it names the tablet; else -1. */
  private final int namedTabletColumn;

  /** The {@code output_tablet_key} columns, by position in {@link #columns}; empty if none. */
  private final int[] keyColumns;

  SinkRows(YtWriteSpec spec, int partitionId) {
    this.spec = spec;
    this.partitionId = partitionId;
    this.columns = spec.columns().toArray(new ColumnSpec[0]);
    this.getters = new CatalystGetter[columns.length];
    for (int i = 0; i < columns.length; i++) {
      getters[i] = CatalystGetter.of(columns[i].sparkType());
    }
    List<String> names = new ArrayList<>();
    List<Integer> writtenColumns = new ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      if (columns[i].isWritten()) {
        names.add(columns[i].name());
        writtenColumns.add(i);
      }
    }
    this.written = writtenColumns.stream().mapToInt(Integer::intValue).toArray();
    if (spec.sorted() || spec.staticTable()) {
      this.tabletPosition = -1;
    } else {
      if (!names.contains(TABLET_INDEX)) {
        names.add(TABLET_INDEX);
      }
      this.tabletPosition = names.indexOf(TABLET_INDEX);
    }
    this.layout = RowLayout.of(names);
    int named = -1;
    if (spec.namedTablet()) {
      for (int i = 0; i < columns.length; i++) {
        if (columns[i].name().equals(TABLET_INDEX)) {
          named = i;
        }
      }
    }
    this.namedTabletColumn = named;
    List<String> key = spec.tabletKey();
    this.keyColumns = new int[key.size()];
    for (int k = 0; k < key.size(); k++) {
      for (int i = 0; i < columns.length; i++) {
        if (columns[i].name().equals(key.get(k)) && columns[i].isWritten()) {
          keyColumns[k] = i;
        }
      }
    }
  }

  /** Whether the job chooses each row's tablet ({@link #chosenTablet}), not round-robin. */
  boolean choosesTablet() {
    return namedTabletColumn >= 0 || keyColumns.length > 0;
  }

  /**
   * The tablet the job chose for {@code record}; empty when the job chooses none (round-robin).
   *
   * @throws IllegalArgumentException for a {@code $tablet_index} that is null or not one of the
   *     output's tablets, naming the column, the value and the tablet count
   */
  OptionalInt chosenTablet(InternalRow record) {
    if (!choosesTablet()) {
      return OptionalInt.empty();
    }
    try {
      if (namedTabletColumn >= 0) {
        Object raw =
            record.isNullAt(namedTabletColumn)
                ? null
                : getters[namedTabletColumn].get(record, namedTabletColumn);
        return OptionalInt.of(ChosenOutputTablet.named(TABLET_INDEX, raw, spec.tabletCount()));
      }
      List<Object> values = new ArrayList<>(keyColumns.length);
      for (int i : keyColumns) {
        values.add(converted(record, i));
      }
      return OptionalInt.of(ChosenOutputTablet.byKey(spec.tabletKey(), values, spec.tabletCount()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "task partition " + partitionId + " writing to " + spec.path() + ": " + e.getMessage(),
          e);
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
    // Values straight into the row's array, not through a map per row (a hash insertion per
    // column, then a copy).
    Object[] values = new Object[layout.size()];
    for (int w = 0; w < written.length; w++) {
      values[w] = converted(record, written[w]);
    }
    if (tabletPosition >= 0) {
      values[tabletPosition] = (long) tablet;
    }
    return Row.adopting(layout, values);
  }

  /** Converts the written columns of {@code record} and drops them: fails as a write would. */
  void checkConvertible(InternalRow record) {
    for (int i : written) {
      converted(record, i);
    }
  }

  private Object converted(InternalRow record, int column) {
    Object raw = record.isNullAt(column) ? null : getters[column].get(record, column);
    return columns[column].toYt(raw);
  }
}
