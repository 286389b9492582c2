package io.ytstream.ytsaurus;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * One integer per pulled row, unboxed, or none for a row whose value is null or not an integer: a
 * pull's {@code $timestamp} (uint64, its 64 bits) and {@code $cumulative_data_weight} (int64),
 * which every row of a queue carries.
 */
final class PulledLongs {

  private long[] values;
  private boolean[] present;

  PulledLongs(int capacity) {
    values = new long[capacity];
    present = new boolean[capacity];
  }

  void set(int row, long value) {
    values[row] = value;
    present[row] = true;
  }

  /** A value as the row-by-row decoding gives it: Long or YsonUint64 is kept, anything else not. */
  void setValue(int row, Object value) {
    OptionalLong integer = UntypedValues.integer(value);
    if (integer.isPresent()) {
      set(row, integer.getAsLong());
    } else {
      present[row] = false;
    }
  }

  OptionalLong get(int row) {
    return present[row] ? OptionalLong.of(values[row]) : OptionalLong.empty();
  }

  void resize(int capacity) {
    values = Arrays.copyOf(values, capacity);
    present = Arrays.copyOf(present, capacity);
  }
}
