package io.ytstream.ports;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A row read from a queue partition, with its position ({@code $tablet_index}, {@code $row_index})
 * and the system columns the queue declares ({@code $timestamp}, {@code $cumulative_data_weight}).
 */
public record QueueRow(
    int tabletIndex,
    long rowIndex,
    Row data,
    OptionalLong timestamp,
    OptionalLong cumulativeDataWeight) {

  public QueueRow {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(cumulativeDataWeight, "cumulativeDataWeight");
    if (tabletIndex < 0 || rowIndex < 0) {
      throw new IllegalArgumentException(
          "tablet and row index must be >= 0, got " + tabletIndex + "/" + rowIndex);
    }
  }
}
