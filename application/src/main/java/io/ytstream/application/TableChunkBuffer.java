package io.ytstream.application;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A table writer task's rows held for one dynamic table, written as one chunk by {@link WriteChunk}
 * (which decides what is retried). When they are written is {@link ForeachWriterBuffer}'s.
 */
@DrivingUseCase
public final class TableChunkBuffer implements ForeachWriterBuffer.Pending {

  private final WriteChunk chunks;
  private final YPath path;
  private final boolean sorted;
  private final List<Row> rows = new ArrayList<>();

  public TableChunkBuffer(WriteChunk chunks, YPath path, boolean sorted) {
    this.chunks = chunks;
    this.path = path;
    this.sorted = sorted;
  }

  /** Holds a row; returns how many are held. */
  public int add(Row row) {
    rows.add(row);
    return rows.size();
  }

  @Override
  public int buffered() {
    return rows.size();
  }

  @Override
  public void writeAll() {
    if (rows.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(rows);
    rows.clear();
    chunks.write(path, sorted, chunk);
  }

  @Override
  public void clear() {
    rows.clear();
  }
}
