package io.ytstream.spark.sink;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;

/**
 * What a producer-mode writer task needs besides the output queue: the queue producer, the query id
 * that names the sessions, the rows one share's transaction may write per tablet, that
 * transaction's timeout, and, when the driver found it in the checkpoint, the source's end offsets
 * of the batch it runs (for the session's user_meta).
 */
final class ProducerTarget implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String producer;
  private final String queryId;
  private final long maxRowsPerTablet;
  private final long transactionTimeoutMs;
  private final long endBatchId;
  private final String endOffsetsJson;

  private ProducerTarget(
      String producer,
      String queryId,
      long maxRowsPerTablet,
      long transactionTimeoutMs,
      long endBatchId,
      String endOffsetsJson) {
    this.producer = producer;
    this.queryId = queryId;
    this.maxRowsPerTablet = maxRowsPerTablet;
    this.transactionTimeoutMs = transactionTimeoutMs;
    this.endBatchId = endBatchId;
    this.endOffsetsJson = endOffsetsJson;
  }

  static ProducerTarget of(
      YPath producer, String queryId, long maxRowsPerTablet, Duration transactionTimeout) {
    return new ProducerTarget(
        producer.value(), queryId, maxRowsPerTablet, transactionTimeout.toMillis(), -1, null);
  }

  /** The same target, knowing that batch {@code batchId} ends at {@code end}. */
  ProducerTarget withSourceEnd(long batchId, StreamOffsets end) {
    return new ProducerTarget(
        producer, queryId, maxRowsPerTablet, transactionTimeoutMs, batchId, OffsetsJson.write(end));
  }

  YPath producer() {
    return YPath.of(producer);
  }

  String queryId() {
    return queryId;
  }

  long maxRowsPerTablet() {
    return maxRowsPerTablet;
  }

  /**
   * The timeout of a share's tablet transaction ({@code spark.yt.streaming.transactionTimeoutMs}).
   */
  Duration transactionTimeout() {
    return Duration.ofMillis(transactionTimeoutMs);
  }

  /** The source's end offsets of batch {@code batchId}, if the driver found them. */
  Optional<StreamOffsets> sourceEnd(long batchId) {
    if (endOffsetsJson == null || batchId != endBatchId) {
      return Optional.empty();
    }
    return Optional.of(OffsetsJson.parse(endOffsetsJson));
  }

  @Override
  public String toString() {
    return "ProducerTarget[" + producer + ", query " + queryId + "]";
  }
}
