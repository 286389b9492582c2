package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A committed row of an ordered tablet with the system values assigned at commit. Its text as UTF-8
 * bytes ({@link #textBytes}) is encoded on the first read that asks for bytes and kept: a server
 * stores and sends bytes, so a reader of bytes should not pay an encoding per read that no real
 * cluster makes it pay. Only touched under the cluster's lock.
 */
final class StoredQueueRow {

  private final long rowIndex;
  private final Row data;
  private final long timestamp;
  private final long cumulativeDataWeight;
  private Row textBytes;

  StoredQueueRow(long rowIndex, Row data, long timestamp, long cumulativeDataWeight) {
    this.rowIndex = rowIndex;
    this.data = data;
    this.timestamp = timestamp;
    this.cumulativeDataWeight = cumulativeDataWeight;
  }

  long rowIndex() {
    return rowIndex;
  }

  Row data() {
    return data;
  }

  long timestamp() {
    return timestamp;
  }

  long cumulativeDataWeight() {
    return cumulativeDataWeight;
  }

  /**
   * The row with the value of every column of {@code textColumns} ({@code string} and {@code utf8})
   * as its UTF-8 {@code byte[]} (a value of the same type, see {@code
   * QueuePartitionReader#pullKeepingTextBytes}); other values as they are. The same row (and
   * arrays) on every call; the arrays are never changed. A table's columns never change type, so
   * the first caller's set stands.
   */
  Row textBytes(Set<String> textColumns) {
    Row r = textBytes;
    if (r == null) {
      int n = data.layout().size();
      Object[] values = new Object[n];
      boolean text = false;
      for (int i = 0; i < n; i++) {
        Object v = data.valueAt(i);
        if (v instanceof String s && textColumns.contains(data.layout().name(i))) {
          v = s.getBytes(StandardCharsets.UTF_8);
          text = true;
        }
        values[i] = v;
      }
      r = text ? Row.adopting(data.layout(), values) : data;
      textBytes = r;
    }
    return r;
  }
}
