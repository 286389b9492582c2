package io.ytstream.spark.realtime;

import io.ytstream.application.ReadRealTimePartition;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Real-time Mode: rows a task pulled but could not hand out before Spark's deadline, kept in the
 * executor's JVM for the task that starts at the same row index in the next batch (as Spark's Kafka
 * source keeps a consumer's fetched records between tasks). Over a network this saves the new
 * task's first pull for the rows that were already in flight when the batch ended: a round trip
 * less for the rows that wait longest at a boundary.
 *
 * <p>Rows are kept per read (one query run's source: a restarted query never sees its predecessor's
 * rows) and partition, only the last task's, at most one pull of them, and for {@link #KEEP_MS}. An
 * entry is taken once; whether its rows serve the task that takes it (only when they begin at its
 * start) is {@link ReadRealTimePartition}'s rule, so a task on another executor, a retry from
 * another index or a late start pulls as before. Rows older than {@link #KEEP_MS} are dropped
 * whenever a task keeps or takes rows, and a stopping query drops its own in the driver's JVM
 * ({@link #forget}): an executor that never runs another real-time task holds at most one pull per
 * partition of its last query.
 */
public final class CarriedRows {

  /** How long rows wait for the next task: a boundary takes milliseconds. */
  static final long KEEP_MS = 10_000;

  private record Key(String readId, PartitionId partition) {}

  private record Kept(List<QueueRow> rows, long atMs) {}

  // Static, as the Kafka source's consumer pool (KafkaDataConsumer): Spark gives a task nothing
  // from the previous batch's task on the same executor (PartitionReaderFactory.createReader gets
  // only the InputPartition the driver planned), so an executor-wide map is the only way across.
  private static final ConcurrentHashMap<Key, Kept> KEPT = new ConcurrentHashMap<>();

  private CarriedRows() {}

  /** Keeps {@code rows} for the next task of this read and partition, replacing earlier ones. */
  static void keep(String readId, PartitionId partition, List<QueueRow> rows, long nowMs) {
    dropOlderThan(nowMs - KEEP_MS);
    if (rows.isEmpty()) {
      KEPT.remove(new Key(readId, partition));
      return;
    }
    KEPT.put(new Key(readId, partition), new Kept(List.copyOf(rows), nowMs));
  }

  /** The rows kept for the next task of this read and partition (once), or none. */
  static List<QueueRow> take(String readId, PartitionId partition, long nowMs) {
    Kept kept = KEPT.remove(new Key(readId, partition));
    if (kept == null || nowMs - kept.atMs() >= KEEP_MS) {
      return List.of();
    }
    return kept.rows();
  }

  /** Drops what this read's tasks left in this JVM: its query stopped. */
  public static void forget(String readId) {
    KEPT.keySet().removeIf(k -> k.readId().equals(readId));
  }

  private static void dropOlderThan(long cutoffMs) {
    KEPT.values().removeIf(k -> k.atMs() < cutoffMs);
  }
}
