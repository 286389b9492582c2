package io.ytstream.spark.realtime;

import io.ytstream.application.realtime.RowsCarriedToNextTask;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.util.List;

/**
 * The executor JVM's {@link RowsCarriedToNextTask}: rows a real-time task pulled but could not hand
 * out before Spark's deadline, for the task that reads the same partition in the next batch. A
 * stopping query drops its own in the driver's JVM ({@link #forget}): an executor that never runs
 * another real-time task holds at most one pull per partition of its last query, for {@code
 * KEEP_MS}.
 */
public final class CarriedRows {

  // Static, as the Kafka source's consumer pool (KafkaDataConsumer): Spark gives a task nothing
  // from the previous batch's task on the same executor (PartitionReaderFactory.createReader gets
  // only the InputPartition the driver planned), so an executor-wide store is the only way across.
  private static final RowsCarriedToNextTask KEPT = new RowsCarriedToNextTask();

  private CarriedRows() {}

  /** The store itself, for the real-time task that takes and leaves rows in it. */
  static RowsCarriedToNextTask store() {
    return KEPT;
  }

  /** Keeps {@code rows} for the next task of this read and partition, replacing earlier ones. */
  static void keep(String readId, PartitionId partition, List<QueueRow> rows, long nowMs) {
    KEPT.keep(readId, partition, rows, nowMs);
  }

  /** The rows kept for the next task of this read and partition (once), or none. */
  static List<QueueRow> take(String readId, PartitionId partition, long nowMs) {
    return KEPT.take(readId, partition, nowMs);
  }

  /** Drops what this read's tasks left in this JVM: its query stopped. */
  public static void forget(String readId) {
    KEPT.forget(readId);
  }
}
