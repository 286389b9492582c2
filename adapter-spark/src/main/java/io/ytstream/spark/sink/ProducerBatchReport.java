package io.ytstream.spark.sink;

import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the tasks' pushes of one batch did, summed on the driver from their commit messages: rows
 * written, rows not written because the sessions held them, shares that were already in the queue
 * (a replay) and shares whose output changed between attempts.
 */
record ProducerBatchReport(
    long batchId,
    long writtenRows,
    long skippedRows,
    int pushedShares,
    int alreadyPushedShares,
    int changedShares) {

  private static final Logger LOG = LoggerFactory.getLogger(ProducerBatchReport.class);

  static ProducerBatchReport of(long batchId, WriterCommitMessage[] messages) {
    long written = 0;
    long skipped = 0;
    int pushed = 0;
    int already = 0;
    int changed = 0;
    for (WriterCommitMessage m : messages) {
      if (!(m instanceof YtCommitMessage share) || share.shareAction() == null) {
        continue;
      }
      written += share.writtenRows();
      skipped += share.skippedRows();
      switch (share.shareAction()) {
        case "PUSH" -> pushed++;
        case "ALREADY_PUSHED" -> already++;
        case "OUTPUT_CHANGED" -> changed++;
        default -> {
          // empty shares and shares behind a later batch push nothing and say so themselves
        }
      }
    }
    return new ProducerBatchReport(batchId, written, skipped, pushed, already, changed);
  }

  void log(String queue) {
    if (alreadyPushedShares > 0 && pushedShares == 0 && changedShares == 0) {
      LOG.info(
          "batch {} was already in {}: its producer sessions hold all {} shares that have rows (an"
              + " earlier run pushed them and stopped before commits/{}); their {} rows were not"
              + " pushed again, nothing was written twice",
          batchId,
          queue,
          alreadyPushedShares,
          batchId,
          skippedRows);
    } else {
      LOG.debug(
          "batch {}: {} rows pushed into {}, {} not written as their sessions held them",
          batchId,
          writtenRows,
          queue,
          skippedRows);
    }
  }
}
