package io.ytstream.emulator;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.util.AbstractList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.RandomAccess;

/**
 * Rows of an ordered table as a pull or a select answers them: {@code $tablet_index}, {@code
 * $row_index}, the data columns, then {@code $timestamp} and {@code $cumulative_data_weight} when
 * the row has them. Rows of one table share a data layout, so the answer's layout is built once per
 * data layout and each row is one array, without a map per row.
 */
final class PulledRows {

  private static final String TABLET_INDEX = "$tablet_index";
  private static final String ROW_INDEX = "$row_index";
  private static final String TIMESTAMP = "$timestamp";
  private static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";

  private RowLayout data;
  private boolean timestamp;
  private boolean weight;
  private RowLayout layout;

  /**
   * The answer rows of {@code rows} as a list that builds each only when asked: {@link
   * YsonRowWriter} writes pulled rows straight from the queue rows (no row object, no boxed row
   * index per row), other writers read the list.
   */
  static Answer answer(List<QueueRow> rows) {
    return new Answer(rows);
  }

  /** {@link #answer}: queue rows seen as the rows of the answer. */
  static final class Answer extends AbstractList<Row> implements RandomAccess {

    private final List<QueueRow> rows;
    private final PulledRows layouts = new PulledRows();

    private Answer(List<QueueRow> rows) {
      this.rows = rows;
    }

    QueueRow queueRow(int index) {
      return rows.get(index);
    }

    /**
     * The answer's layout for {@code row}: {@code $tablet_index}, {@code $row_index}, the data
     * columns, then the system columns it has; null when a data column repeats a system column's
     * name (then only {@link #get} builds that row right).
     */
    RowLayout layoutOf(QueueRow row) {
      return layouts.layoutFor(
          row.data().layout(), row.timestamp().isPresent(), row.cumulativeDataWeight().isPresent());
    }

    @Override
    public Row get(int index) {
      return layouts.of(rows.get(index));
    }

    @Override
    public int size() {
      return rows.size();
    }
  }

  /** A pulled queue row with its system columns. */
  Row of(QueueRow row) {
    return of(
        row.tabletIndex(), row.rowIndex(), row.data(), row.timestamp(), row.cumulativeDataWeight());
  }

  /** A row of tablet {@code tablet} at {@code rowIndex}, with the system columns given. */
  Row of(
      long tablet,
      long rowIndex,
      Row values,
      OptionalLong timestampValue,
      OptionalLong weightValue) {
    RowLayout answer =
        layoutFor(values.layout(), timestampValue.isPresent(), weightValue.isPresent());
    if (answer == null) {
      return asMap(tablet, rowIndex, values, timestampValue, weightValue);
    }
    int n = values.layout().size();
    Object[] out = new Object[answer.size()];
    out[0] = tablet;
    out[1] = rowIndex;
    for (int i = 0; i < n; i++) {
      out[i + 2] = values.valueAt(i);
    }
    int next = n + 2;
    if (timestampValue.isPresent()) {
      out[next++] = timestampValue.getAsLong();
    }
    if (weightValue.isPresent()) {
      out[next] = weightValue.getAsLong();
    }
    return Row.adopting(answer, out);
  }

  /** The answer's layout, or null when a data column repeats a system column's name. */
  private RowLayout layoutFor(RowLayout values, boolean withTimestamp, boolean withWeight) {
    if (values == data && withTimestamp == timestamp && withWeight == weight && layout != null) {
      return layout;
    }
    int n = values.size();
    String[] names = new String[n + 2 + (withTimestamp ? 1 : 0) + (withWeight ? 1 : 0)];
    names[0] = TABLET_INDEX;
    names[1] = ROW_INDEX;
    for (int i = 0; i < n; i++) {
      names[i + 2] = values.name(i);
    }
    int next = n + 2;
    if (withTimestamp) {
      names[next++] = TIMESTAMP;
    }
    if (withWeight) {
      names[next] = CUMULATIVE_DATA_WEIGHT;
    }
    RowLayout built;
    try {
      built = RowLayout.of(names);
    } catch (IllegalArgumentException repeated) {
      return null;
    }
    data = values;
    timestamp = withTimestamp;
    weight = withWeight;
    layout = built;
    return built;
  }

  /** A later column of the same name takes the earlier one's place, as a map's put does. */
  private static Row asMap(
      long tablet,
      long rowIndex,
      Row values,
      OptionalLong timestampValue,
      OptionalLong weightValue) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put(TABLET_INDEX, tablet);
    map.put(ROW_INDEX, rowIndex);
    map.putAll(values.asMap());
    timestampValue.ifPresent(t -> map.put(TIMESTAMP, t));
    weightValue.ifPresent(w -> map.put(CUMULATIVE_DATA_WEIGHT, w));
    return Row.of(map);
  }
}
