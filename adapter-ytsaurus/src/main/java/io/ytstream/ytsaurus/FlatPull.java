package io.ytstream.ytsaurus;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.yson.YsonUint64;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * One pull's answer held flat: per data column an array of its values (int64s unboxed, text as
 * ranges of the answer's bytes, anything else as the port's value), the row indexes in a {@code
 * long[]}. A reader walking it by index makes no object per row; {@link #row} builds the {@link
 * QueueRow} the row-by-row decoding ({@code HttpQueuePartitionReader}'s collector) gives.
 *
 * <p>It holds answers whose rows all have the same columns in the same order, as the server writes
 * a queue's rows, and whose {@code $tablet_index} and {@code $row_index} are int64s. For any other
 * answer {@link Collector} throws {@link NotFlat} and the caller decodes it row by row instead.
 */
final class FlatPull implements QueueRowBatch {

  private static final byte UNSET = 0;
  private static final byte LONGS = 1;
  private static final byte TEXT = 2;
  private static final byte OBJECTS = 3;

  private final byte[] body;
  private final int tablet;
  private RowLayout layout;
  private int size;
  private long[] rowIndexes;
  // Per data column: how its values are held, and the arrays that hold them.
  private byte[] kinds;
  private long[][] longs;
  private int[][] textOffsets;
  private int[][] textLengths; // -1: null
  private Object[][] objects;
  private PulledLongs timestamps; // null when the answer has no $timestamp
  private PulledLongs weights; // null when it has no $cumulative_data_weight

  private FlatPull(byte[] body, int tablet, int capacity) {
    this.body = body;
    this.tablet = tablet;
    this.rowIndexes = new long[capacity];
  }

  /** The answer is not one {@link FlatPull} holds: decode it row by row. */
  static final class NotFlat extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFlat() {
      super(null, null, false, false);
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public long rowIndex(int row) {
    return rowIndexes[row];
  }

  @Override
  public int tabletIndex(int row) {
    return tablet;
  }

  @Override
  public RowLayout layout(int row) {
    return layout;
  }

  @Override
  public Object valueAt(int row, int position) {
    byte kind = kinds[position];
    if (kind == LONGS) {
      return longs[position][row];
    }
    if (kind == TEXT) {
      int length = textLengths[position][row];
      return length < 0 ? null : new TextSlice(body, textOffsets[position][row], length);
    }
    return objects[position][row];
  }

  @Override
  public boolean hasLongAt(int row, int position) {
    return kinds[position] == LONGS;
  }

  @Override
  public long longAt(int row, int position) {
    return kinds[position] == LONGS ? longs[position][row] : (Long) valueAt(row, position);
  }

  @Override
  public int textLength(int row, int position) {
    return kinds[position] == TEXT ? textLengths[position][row] : -1;
  }

  @Override
  public byte[] textArray(int row, int position) {
    return body;
  }

  @Override
  public int textOffset(int row, int position) {
    return textOffsets[position][row];
  }

  @Override
  public OptionalLong timestamp(int row) {
    return timestamps == null ? OptionalLong.empty() : timestamps.get(row);
  }

  @Override
  public OptionalLong cumulativeDataWeight(int row) {
    return weights == null ? OptionalLong.empty() : weights.get(row);
  }

  @Override
  public QueueRow row(int row) {
    Object[] values = new Object[kinds.length];
    for (int c = 0; c < values.length; c++) {
      values[c] = valueAt(row, c);
    }
    return new QueueRow(
        tablet,
        rowIndexes[row],
        Row.adopting(layout, values),
        timestamp(row),
        cumulativeDataWeight(row));
  }

  /**
   * Fills a {@link FlatPull} as the decoder hands each column, with the checks (and messages) of
   * the row-by-row collector: a row below the offset or of another tablet is refused, a gap ends
   * the answer at the contiguous prefix.
   */
  static final class Collector implements RowVisitor {

    private static final int PRESIZED_ROWS = 16_384;
    private static final int DATA = 0;
    private static final int TABLET = 1;
    private static final int ROW = 2;
    private static final int TIME = 3;
    private static final int WEIGHT = 4;
    private static final int OTHER_SYSTEM = 5;

    private final String command;
    private final PartitionId partition;
    private final long offset;
    private final int maxRows;
    private final FlatPull pull;
    private int capacity;

    // The columns of the first row, which every row must repeat.
    private String[] names = new String[8];
    private int[] roles = new int[8];
    private int[] dataColumn = new int[8];
    private int width = -1;
    private int dataWidth;

    // The row being decoded.
    private int columns;
    private boolean hasTablet;
    private long tabletIndex;
    private boolean hasRowIndex;
    private long rowIndex;

    Collector(String command, PartitionId partition, long offset, int maxRows, byte[] body) {
      this.command = command;
      this.partition = partition;
      this.offset = offset;
      this.maxRows = maxRows;
      this.capacity = Math.min(maxRows, PRESIZED_ROWS);
      this.pull = new FlatPull(body, partition.index(), capacity);
    }

    FlatPull pull() {
      if (pull.layout == null) {
        pull.layout = RowLayout.of();
        pull.kinds = new byte[0];
      }
      return pull;
    }

    /** The role of the next column, {@code name}: learnt from the first row, then checked. */
    private int roleAt(String name) {
      int p = columns++;
      if (width < 0) {
        if (p == names.length) {
          names = Arrays.copyOf(names, p * 2);
          roles = Arrays.copyOf(roles, p * 2);
          dataColumn = Arrays.copyOf(dataColumn, p * 2);
        }
        names[p] = name;
        int role = roleOf(name);
        roles[p] = role;
        dataColumn[p] = role == DATA ? dataWidth++ : -1;
        if (role == TIME && pull.timestamps == null) {
          pull.timestamps = new PulledLongs(capacity);
        } else if (role == WEIGHT && pull.weights == null) {
          pull.weights = new PulledLongs(capacity);
        }
        return role;
      }
      // String.equals is true at once for the same object, which the decoders hand for a column.
      if (p >= width || !name.equals(names[p])) {
        throw new NotFlat();
      }
      return roles[p];
    }

    private static int roleOf(String name) {
      if (!name.startsWith("$")) {
        return DATA;
      }
      return switch (name) {
        case HttpQueuePartitionReader.TABLET_INDEX -> TABLET;
        case HttpQueuePartitionReader.ROW_INDEX -> ROW;
        case HttpQueuePartitionReader.TIMESTAMP -> TIME;
        case HttpQueuePartitionReader.CUMULATIVE_DATA_WEIGHT -> WEIGHT;
        default -> OTHER_SYSTEM;
      };
    }

    @Override
    public void column(String name, Object value) {
      int p = columns;
      switch (roleAt(name)) {
        case DATA -> putObject(dataColumn[p], value);
        case TABLET, ROW -> {
          if (value != null) {
            throw new NotFlat(); // not an int64: the row-by-row path reads it as it can
          }
        }
        case TIME -> pull.timestamps.setValue(pull.size, value);
        case WEIGHT -> pull.weights.setValue(pull.size, value);
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    @Override
    public void integer(String name, long value) {
      int p = columns;
      switch (roleAt(name)) {
        case DATA -> putLong(dataColumn[p], value);
        case TABLET -> {
          hasTablet = true;
          tabletIndex = value;
        }
        case ROW -> {
          hasRowIndex = true;
          rowIndex = value;
        }
        case TIME -> pull.timestamps.set(pull.size, value);
        case WEIGHT -> pull.weights.set(pull.size, value);
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    @Override
    public void unsigned(String name, long bits) {
      int p = columns;
      switch (roleAt(name)) {
        case DATA -> putObject(dataColumn[p], new YsonUint64(bits));
        case TABLET, ROW -> throw new NotFlat(); // not an int64: read row by row
        case TIME -> pull.timestamps.set(pull.size, bits);
        case WEIGHT -> pull.weights.set(pull.size, bits);
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    @Override
    public void text(String name, byte[] data, int offset, int length) {
      if (data != pull.body) {
        column(name, new TextSlice(data, offset, length));
        return;
      }
      int p = columns;
      if (roleAt(name) == DATA) {
        putText(dataColumn[p], offset, length);
      } else {
        columns--;
        column(name, new TextSlice(data, offset, length));
      }
    }

    private void putLong(int c, long value) {
      byte kind = kindFor(c, LONGS);
      if (kind == LONGS) {
        pull.longs[c][pull.size] = value;
      } else {
        pull.objects[c][pull.size] = value;
      }
    }

    private void putText(int c, int offset, int length) {
      byte kind = kindFor(c, TEXT);
      if (kind == TEXT) {
        pull.textOffsets[c][pull.size] = offset;
        pull.textLengths[c][pull.size] = length;
      } else {
        pull.objects[c][pull.size] = new TextSlice(pull.body, offset, length);
      }
    }

    private void putObject(int c, Object value) {
      if (value == null && pull.kinds != null && pull.kinds[c] == TEXT) {
        pull.textLengths[c][pull.size] = -1;
        return;
      }
      kindFor(c, OBJECTS);
      pull.objects[c][pull.size] = value;
    }

    /** How column {@code c} holds values; a value of another kind turns it into objects. */
    private byte kindFor(int c, byte wanted) {
      if (pull.kinds == null) {
        allocateColumns();
      } else if (c >= pull.kinds.length) {
        ensureColumns(); // the first row has more data columns than allocated
      }
      byte kind = pull.kinds[c];
      if (kind == wanted || kind == OBJECTS) {
        return kind;
      }
      if (kind == UNSET) {
        pull.kinds[c] = wanted;
        switch (wanted) {
          case LONGS -> pull.longs[c] = new long[capacity];
          case TEXT -> {
            pull.textOffsets[c] = new int[capacity];
            pull.textLengths[c] = new int[capacity];
          }
          default -> pull.objects[c] = new Object[capacity];
        }
        return wanted;
      }
      Object[] boxed = new Object[capacity];
      for (int row = 0; row < pull.size; row++) {
        boxed[row] = pull.valueAt(row, c);
      }
      pull.objects[c] = boxed;
      pull.longs[c] = null;
      pull.textOffsets[c] = null;
      pull.textLengths[c] = null;
      pull.kinds[c] = OBJECTS;
      return OBJECTS;
    }

    /** The per-column arrays, sized while the first row's columns are known so far. */
    private void allocateColumns() {
      int n = Math.max(dataWidth, 8);
      pull.kinds = new byte[n];
      pull.longs = new long[n][];
      pull.textOffsets = new int[n][];
      pull.textLengths = new int[n][];
      pull.objects = new Object[n][];
    }

    private void ensureColumns() {
      int n = pull.kinds.length;
      if (dataWidth > n) {
        int m = Math.max(dataWidth, n * 2);
        pull.kinds = Arrays.copyOf(pull.kinds, m);
        pull.longs = Arrays.copyOf(pull.longs, m);
        pull.textOffsets = Arrays.copyOf(pull.textOffsets, m);
        pull.textLengths = Arrays.copyOf(pull.textLengths, m);
        pull.objects = Arrays.copyOf(pull.objects, m);
      }
    }

    @Override
    public boolean endRow() {
      if (width < 0) {
        firstRowDone();
      } else if (columns != width) {
        throw new NotFlat();
      }
      columns = 0;
      boolean rowHasIndex = hasRowIndex;
      boolean rowHasTablet = hasTablet;
      hasRowIndex = false;
      hasTablet = false;
      if (!rowHasIndex) {
        throw new YtTransportException(
            command + " returned a row without $row_index for " + partition, null);
      }
      if (rowHasTablet && tabletIndex != partition.index()) {
        throw new YtTransportException(
            command + " for " + partition + " returned a row of tablet " + tabletIndex, null);
      }
      int n = pull.size;
      if (n == 0) {
        if (rowIndex < offset) {
          throw new YtTransportException(
              command
                  + " on "
                  + partition
                  + " at offset "
                  + offset
                  + " returned row "
                  + rowIndex
                  + ", below the offset",
              null);
        }
      } else if (rowIndex != pull.rowIndexes[n - 1] + 1) {
        return false; // a gap: keep the contiguous prefix
      }
      pull.rowIndexes[n] = rowIndex;
      pull.size = n + 1;
      if (pull.size == capacity && capacity < maxRows) {
        grow();
      }
      return pull.size < maxRows;
    }

    /** The first row's columns are the answer's layout. */
    private void firstRowDone() {
      width = columns;
      List<String> dataNames = new ArrayList<>(dataWidth);
      for (int p = 0; p < width; p++) {
        if (roles[p] == DATA) {
          dataNames.add(names[p]);
        }
      }
      if (new HashSet<>(dataNames).size() != dataNames.size()) {
        throw new NotFlat(); // a repeated column name: the row-by-row path keeps the last value
      }
      pull.layout = RowLayout.of(dataNames);
      if (pull.kinds == null) {
        allocateColumns();
      }
      ensureColumns();
      pull.kinds = Arrays.copyOf(pull.kinds, dataWidth);
      for (int c = 0; c < dataWidth; c++) {
        if (pull.kinds[c] == UNSET) {
          throw new NotFlat(); // cannot happen: every data column got a value
        }
      }
    }

    private void grow() {
      int next = (int) Math.min(maxRows, (long) capacity * 2);
      pull.rowIndexes = Arrays.copyOf(pull.rowIndexes, next);
      for (int c = 0; c < pull.kinds.length; c++) {
        if (pull.longs[c] != null) {
          pull.longs[c] = Arrays.copyOf(pull.longs[c], next);
        }
        if (pull.textOffsets[c] != null) {
          pull.textOffsets[c] = Arrays.copyOf(pull.textOffsets[c], next);
          pull.textLengths[c] = Arrays.copyOf(pull.textLengths[c], next);
        }
        if (pull.objects[c] != null) {
          pull.objects[c] = Arrays.copyOf(pull.objects[c], next);
        }
      }
      if (pull.timestamps != null) {
        pull.timestamps.resize(next);
      }
      if (pull.weights != null) {
        pull.weights.resize(next);
      }
      capacity = next;
    }
  }
}
