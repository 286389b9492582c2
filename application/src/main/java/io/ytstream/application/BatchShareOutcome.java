package io.ytstream.application;

import io.ytstream.core.delivery.BatchShareDecision;
import java.util.Optional;

/**
 * What {@link PushBatchShare#push} did with one task's share of a batch: the decision taken from
 * the session's sequence number, and the server's answer when the share was pushed.
 *
 * @param decision what the session's state called for
 * @param pushed the server's answer, empty when nothing was pushed
 */
public record BatchShareOutcome(BatchShareDecision decision, Optional<ProducerPushOutcome> pushed) {

  /** The rows of the share in this attempt. */
  public long rowCount() {
    return decision.rowCount();
  }

  /** The rows this attempt wrote into the queue. */
  public long writtenRowCount() {
    return pushed.map(ProducerPushOutcome::writtenRowCount).orElse(0L);
  }

  /**
   * The rows of this share that were not written because the session already held them: every row
   * of a share {@code ALREADY_PUSHED} (not pushed again). A share is pushed only into a session
   * that holds nothing of its batch, so a pushed share skips none.
   */
  public long skippedRowCount() {
    return decision.action() == BatchShareDecision.Action.ALREADY_PUSHED ? decision.rowCount() : 0;
  }
}
