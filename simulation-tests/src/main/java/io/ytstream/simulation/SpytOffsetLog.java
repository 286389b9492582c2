package io.ytstream.simulation;

import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.types.json.JsonWriter;
import java.util.Map;

/**
 * An offset log entry as Spark writes it for SPYT's streaming source: its {@code YtQueueOffset}
 * (ytsaurus/ytsaurus-spyt, {@code data-source/.../spyt/streaming/YtQueueOffset.scala}) holds one
 * queue's cluster, path and, for partitions 0..n-1, the last row read. A seed whose query SPYT ran
 * first logs its first batches so; what SPYT cannot express (several queues, a gap) is logged in
 * ytstream's form, as only ytstream writes such offsets.
 */
final class SpytOffsetLog {

  private SpytOffsetLog() {}

  /** The entry of a batch ending at {@code end}, SPYT's where it can hold it. */
  static String entry(StreamOffsets end) {
    String ours = OffsetLogEntry.of(end);
    if (end.isEmpty()) {
      return ours;
    }
    QueueId queue = end.partitionAt(0).queue();
    StringBuilder partitions = new StringBuilder("{");
    int expected = 0;
    for (Map.Entry<PartitionId, Long> e : end.asMap().entrySet()) {
      if (!e.getKey().queue().equals(queue) || e.getKey().index() != expected) {
        return ours;
      }
      if (expected > 0) {
        partitions.append(',');
      }
      partitions.append('"').append(expected).append("\":").append(e.getValue() - 1);
      expected++;
    }
    StringBuilder line = new StringBuilder("{\"cluster\":");
    JsonWriter.appendString(line, queue.cluster());
    line.append(",\"path\":");
    JsonWriter.appendString(line, queue.path().value());
    line.append(",\"partitions\":").append(partitions).append("}}");
    return ours.substring(0, ours.lastIndexOf('\n') + 1) + line;
  }
}
