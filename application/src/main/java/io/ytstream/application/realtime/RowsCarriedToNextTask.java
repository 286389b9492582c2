package io.ytstream.application.realtime;

import io.ytstream.application.DrivingUseCase;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Real-time Mode: rows a task pulled but could not hand out before the engine's deadline, kept for
 * the task that reads the same partition in the next batch (as Spark's Kafka source keeps a
 * consumer's fetched records between tasks): a round trip less for the rows that wait longest at a
 * boundary.
 *
 * <p>Rows are kept per read (one query run's source: a restarted query never sees its predecessor's
 * rows) and partition, only the last task's, and for {@link #KEEP_MS}. An entry is taken once;
 * whether its rows serve the task that takes it (only when they begin at its start) is {@code
 * ReadRealTimePartition}'s rule. Rows older than {@link #KEEP_MS} are dropped whenever a task keeps
 * rows. Safe for concurrent tasks; the time is the caller's.
 */
@DrivingUseCase
public final class RowsCarriedToNextTask {

  /** How long rows wait for the next task: a boundary takes milliseconds. */
  public static final long KEEP_MS = 10_000;

  private record Key(String readId, PartitionId partition) {}

  private record Kept(List<QueueRow> rows, long atMs) {}

  private static final Comparator<Key> ORDER =
      Comparator.comparing(Key::readId).thenComparing(Key::partition);

  private final ConcurrentSkipListMap<Key, Kept> kept = new ConcurrentSkipListMap<>(ORDER);

  /** Keeps {@code rows} for the next task of this read and partition, replacing earlier ones. */
  public void keep(String readId, PartitionId partition, List<QueueRow> rows, long nowMs) {
    long cutoffMs = nowMs - KEEP_MS;
    kept.values().removeIf(k -> k.atMs() < cutoffMs);
    if (rows.isEmpty()) {
      kept.remove(new Key(readId, partition));
      return;
    }
    kept.put(new Key(readId, partition), new Kept(List.copyOf(rows), nowMs));
  }

  /** The rows kept for the next task of this read and partition (once), or none. */
  public List<QueueRow> take(String readId, PartitionId partition, long nowMs) {
    Kept k = kept.remove(new Key(readId, partition));
    if (k == null || nowMs - k.atMs() >= KEEP_MS) {
      return List.of();
    }
    return k.rows();
  }

  /** Drops what this read's tasks left: its query stopped. */
  public void forget(String readId) {
    kept.keySet().removeIf(k -> k.readId().equals(readId));
  }

  /** Rows kept now, over every read and partition. */
  public int size() {
    int n = 0;
    for (Kept k : kept.values()) {
      n += k.rows().size();
    }
    return n;
  }
}
