package io.ytstream.spark.sink;

import io.ytstream.application.WriterReport;
import java.util.Arrays;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * What a writer task reports to the driver: its partition and epoch, the batch transaction it wrote
 * into (transactional mode), how many rows went to each output tablet and, through a queue
 * producer, what its push did. A class, not a record: Kryo cannot serialize records.
 */
final class YtCommitMessage implements WriterCommitMessage {

  private static final long serialVersionUID = 1L;

  private final int partitionId;
  private final long epochId;
  private final String transactionId;
  private final long[] rowsPerTablet;
  private final String notKept;
  private final String shareAction;
  private final long writtenRows;
  private final long skippedRows;

  YtCommitMessage(
      int partitionId, long epochId, String transactionId, long[] rowsPerTablet, String notKept) {
    this(partitionId, epochId, transactionId, rowsPerTablet, notKept, null, 0, 0);
  }

  /** A transactional task's report, from partition {@code partitionId}. */
  static YtCommitMessage of(int partitionId, WriterReport report) {
    return new YtCommitMessage(
        partitionId,
        report.epochId(),
        report.transactionId(),
        report.rowsPerTablet(),
        report.notKept());
  }

  private YtCommitMessage(
      int partitionId,
      long epochId,
      String transactionId,
      long[] rowsPerTablet,
      String notKept,
      String shareAction,
      long writtenRows,
      long skippedRows) {
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.transactionId = transactionId;
    this.rowsPerTablet = rowsPerTablet.clone();
    this.notKept = notKept;
    this.shareAction = shareAction;
    this.writtenRows = writtenRows;
    this.skippedRows = skippedRows;
  }

  /**
   * A producer-mode task's report: {@code action} is what its session called for (a {@code
   * BatchShareDecision.Action} name, or {@code empty}), with the rows its push wrote and the rows
   * the server skipped.
   */
  static YtCommitMessage producerShare(
      int partitionId,
      long epochId,
      long[] rowsPerTablet,
      long writtenRows,
      long skippedRows,
      String action) {
    return new YtCommitMessage(
        partitionId, epochId, null, rowsPerTablet, null, action, writtenRows, skippedRows);
  }

  /** Null outside producer mode. */
  String shareAction() {
    return shareAction;
  }

  /** The rows this task's push wrote into the queue (producer mode). */
  long writtenRows() {
    return writtenRows;
  }

  /** The rows of this task's push the server skipped as already written (producer mode). */
  long skippedRows() {
    return skippedRows;
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
        + (shareAction == null
            ? ""
            : ", " + shareAction + ", written=" + writtenRows + ", skipped=" + skippedRows)
        + "]";
  }

  /** The report of a writer in a batch transaction, for the driver's commit. */
  WriterReport toReport() {
    if (transactionId == null) {
      throw new IllegalStateException(
          "partition " + partitionId + " of batch " + epochId + " wrote outside the transaction");
    }
    return new WriterReport(epochId, transactionId, rowsPerTablet, notKept);
  }
}
