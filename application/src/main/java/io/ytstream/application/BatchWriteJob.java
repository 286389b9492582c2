package io.ytstream.application;

import io.ytstream.core.delivery.TaskAttemptEnd;
import io.ytstream.core.delivery.WriteJobVerdict;

/**
 * The driver's view of one transactional batch's write job: the engine feeds each task attempt's
 * end ({@link #taskEnded}) as it learns of it, and the sink asks before committing whether any of
 * them may have left rows in the batch transaction behind a retry's ({@link #checkCommittable}), by
 * core's {@link WriteJobVerdict}.
 */
@DrivingUseCase
public final class BatchWriteJob {

  private final WriteJobVerdict verdict = new WriteJobVerdict();

  /** One task attempt of the write job ended. */
  public synchronized void taskEnded(TaskAttemptEnd end) {
    verdict.taskEnded(end);
  }

  /**
   * Fails, naming the attempts, when some ended attempt may have left rows in batch transaction
   * {@code transactionId}: the batch must not commit (the caller aborts the transaction).
   */
  public synchronized void checkCommittable(long epochId, String transactionId) {
    if (!verdict.committable()) {
      throw new IllegalStateException(
          "batch "
              + epochId
              + " was not committed: "
              + String.join("; ", verdict.taints())
              + ". Spark may have authorized that attempt to insert its rows into batch"
              + " transaction "
              + transactionId
              + " and then let a retry insert the whole partition again, so the transaction"
              + " could hold rows twice. The transaction was aborted: nothing was written and"
              + " the consumer did not move; the batch runs again with a new transaction when"
              + " the query restarts");
    }
  }
}
