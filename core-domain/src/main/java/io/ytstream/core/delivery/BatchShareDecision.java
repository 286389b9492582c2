package io.ytstream.core.delivery;

/**
 * What to do with one task's share of a batch, given the sequence number its producer session
 * holds: the decision of {@link BatchShareNumbering#decide}.
 *
 * @param action what to do
 * @param batchId the batch the share belongs to
 * @param firstSequenceNumber the number of the share's first row ({@link BatchShareNumbering#base})
 * @param rowCount the rows of the share in this attempt
 * @param earlierRowCount the rows an earlier attempt of the same share pushed (0 when none did, or
 *     when the session holds a later batch)
 */
public record BatchShareDecision(
    Action action, long batchId, long firstSequenceNumber, long rowCount, long earlierRowCount) {

  /** The actions. */
  public enum Action {
    /** The session holds nothing of this batch: push every row, numbered from the base. */
    PUSH,
    /** The share has no rows and the session nothing of this batch: there is nothing to push. */
    NOTHING_TO_PUSH,
    /**
     * An earlier attempt pushed as many rows for this batch as this one has (a replay): push
     * nothing, the queue holds them.
     */
    ALREADY_PUSHED,
    /**
     * An earlier attempt pushed a different number of rows for this batch: the task's output
     * changed between attempts (a non-deterministic query, or input rows trimmed after the earlier
     * attempt read them and skipped now). Push nothing: the queue keeps the earlier attempt's rows,
     * which the server would partly skip and partly add.
     */
    OUTPUT_CHANGED,
    /**
     * The session holds numbers of a later batch: this batch was pushed long ago, and the
     * checkpoint that runs it again is behind the session (an old checkpoint, or a lagging second
     * driver). Push nothing: the server would skip every row, and the push would set the session's
     * user_meta back to this batch.
     */
    LATER_BATCH_PUSHED
  }

  /** The number of the share's last row, or {@code firstSequenceNumber - 1} for no rows. */
  public long lastSequenceNumber() {
    return firstSequenceNumber + rowCount - 1;
  }

  /** Whether the share's rows were pushed. */
  public boolean pushes() {
    return action == Action.PUSH;
  }
}
