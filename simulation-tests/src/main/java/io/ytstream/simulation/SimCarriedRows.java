package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.util.List;
import java.util.TreeMap;

/**
 * The executor's rows carried between real-time batches, as adapter-spark's {@code CarriedRows}
 * keeps them: per read (one query run's source) and partition, only the last task's, taken once,
 * dropped after {@link #KEEP_MS} on the simulated clock. Whether they serve the task that takes
 * them is {@code ReadRealTimePartition}'s rule (only when they begin at its start).
 */
final class SimCarriedRows {

  /** {@code CarriedRows.KEEP_MS}. */
  static final long KEEP_MS = 10_000;

  private record Kept(List<QueueRow> rows, long atMs) {}

  private final TreeMap<String, Kept> kept = new TreeMap<>();

  private static String key(String readId, PartitionId partition) {
    return readId + "|" + partition;
  }

  void keep(String readId, PartitionId partition, List<QueueRow> rows, long nowMs) {
    kept.values().removeIf(k -> k.atMs() < nowMs - KEEP_MS);
    if (rows.isEmpty()) {
      kept.remove(key(readId, partition));
      return;
    }
    kept.put(key(readId, partition), new Kept(List.copyOf(rows), nowMs));
  }

  List<QueueRow> take(String readId, PartitionId partition, long nowMs) {
    Kept k = kept.remove(key(readId, partition));
    if (k == null || nowMs - k.atMs() >= KEEP_MS) {
      return List.of();
    }
    return k.rows();
  }

  /** Rows kept now, over every read and partition (for the printout). */
  int size() {
    int n = 0;
    for (Kept k : kept.values()) {
      n += k.rows().size();
    }
    return n;
  }
}
