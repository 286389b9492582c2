package io.ytstream.spark.sink;

import java.util.Arrays;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * What a writer task reports to the driver: its partition and epoch, the batch transaction it wrote
 * into (transactional mode) and how many rows went to each output tablet. A class, not a record:
 * Kryo cannot serialize records.
 */
final class YtCommitMessage implements WriterCommitMessage {

  private static final long serialVersionUID = 1L;

  private final int partitionId;
  private final long epochId;
  private final String transactionId;
  private final long[] rowsPerTablet;
  private final String notKept;

  YtCommitMessage(
      int partitionId, long epochId, String transactionId, long[] rowsPerTablet, String notKept) {
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.transactionId = transactionId;
    this.rowsPerTablet = rowsPerTablet.clone();
    this.notKept = notKept;
  }

  /**
   * Null when the task inserted all its rows; otherwise why it stopped keeping them (transactional
   * mode: too many rows for memory or for the transaction), and then it inserted none.
   */
  String notKept() {
    return notKept;
  }

  int partitionId() {
    return partitionId;
  }

  long epochId() {
    return epochId;
  }

  /** Null outside transactional mode. */
  String transactionId() {
    return transactionId;
  }

  long[] rowsPerTablet() {
    return rowsPerTablet.clone();
  }

  long rows() {
    return Arrays.stream(rowsPerTablet).sum();
  }

  @Override
  public String toString() {
    return "YtCommitMessage[partition="
        + partitionId
        + ", epoch="
        + epochId
        + ", tx="
        + transactionId
        + ", rows="
        + rows()
        + (notKept == null ? "" : ", not kept: " + notKept)
        + "]";
  }
}
