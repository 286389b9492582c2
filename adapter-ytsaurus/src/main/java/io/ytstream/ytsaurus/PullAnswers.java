package io.ytstream.ytsaurus;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.util.List;

/**
 * The two halves of the HTTP reader's {@code pull_queue_consumer}, apart: the answer's bytes as the
 * proxy sent them, and their decoding into rows. For measuring what the wire costs on each side
 * (the benchmarks' read-path control); a reader uses {@link YtsaurusCluster#queueReader()}.
 */
public final class PullAnswers {

  private PullAnswers() {}

  /** The request {@code QueuePartitionReader.pull} sends; the answer's bytes, not decoded. */
  public static byte[] fetch(
      YtsaurusCluster cluster,
      ConsumerId consumer,
      PartitionId partition,
      long offset,
      int maxRows) {
    return new HttpQueuePartitionReader(cluster).fetch(consumer, partition, offset, maxRows);
  }

  /**
   * An answer {@link #fetch} returned, decoded as the reader decodes it ({@code textAsBytes}: as
   * {@code pullKeepingTextBytes} does).
   */
  public static List<QueueRow> decode(
      YtsaurusCluster cluster,
      PartitionId partition,
      long offset,
      int maxRows,
      byte[] answer,
      boolean textAsBytes) {
    HttpQueuePartitionReader reader = new HttpQueuePartitionReader(cluster);
    return reader.decode(partition, offset, maxRows, answer, reader.types(partition), textAsBytes);
  }
}
