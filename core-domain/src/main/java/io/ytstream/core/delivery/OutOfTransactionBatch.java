package io.ytstream.core.delivery;

import io.ytstream.core.commit.CommitLagRule;
import io.ytstream.core.commit.ConsumerAdvance;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Objects;

/**
 * The state machine of one batch in the modes that write outside a batch transaction (at-least-once
 * and idempotent receiver): the sink writes and commits, {@code commits/N} is written, and only
 * then is the consumer advanced, fenced by {@code old_offset}.
 *
 * <pre>
 * PLANNED -writing-> WRITING -sinkCommitted-> SINK_COMMITTED -logCommitted-> LOGGED
 * LOGGED -consumerRead-> (advances) -consumerAdvanced-> DONE | FENCED
 * PLANNED/WRITING -abandoned-> REPLAY   (the batch runs again with the same ranges)
 * </pre>
 */
public final class OutOfTransactionBatch {

  /** The states. */
  public enum State {
    PLANNED,
    WRITING,
    SINK_COMMITTED,
    LOGGED,
    ADVANCING,
    DONE,
    REPLAY,
    FENCED
  }

  private final DeliveryMode mode;
  private final long batchId;
  private final StreamOffsets end;
  private State state = State.PLANNED;
  private String reason = "";

  public OutOfTransactionBatch(DeliveryMode mode, long batchId, StreamOffsets end) {
    if (mode == DeliveryMode.TRANSACTIONAL) {
      throw new IllegalArgumentException("transactional batches use TransactionalBatchCommit");
    }
    this.mode = Objects.requireNonNull(mode, "mode");
    this.batchId = batchId;
    this.end = Objects.requireNonNull(end, "end");
  }

  public DeliveryMode mode() {
    return mode;
  }

  public State state() {
    return state;
  }

  public String reason() {
    return reason;
  }

  public void writing() {
    move(State.PLANNED, State.WRITING);
  }

  /** Every task's writes are durable and the driver's sink commit returned. */
  public void sinkCommitted() {
    move(State.WRITING, State.SINK_COMMITTED);
  }

  /** {@code commits/N} is written: the batch's end is now durable in the checkpoint. */
  public void logCommitted() {
    move(State.SINK_COMMITTED, State.LOGGED);
  }

  /**
   * The consumer as read now; returns the advances to make (each with {@code old_offset}). A
   * consumer beyond the batch end fences the batch: another writer moved it.
   */
  public List<ConsumerAdvance> consumerRead(StreamOffsets consumerNow) {
    expect(State.LOGGED);
    List<PartitionId> ahead = CommitLagRule.partitionsAhead(end, consumerNow);
    if (!ahead.isEmpty()) {
      state = State.FENCED;
      reason =
          "consumer is beyond what batch "
              + batchId
              + " wrote at "
              + ahead
              + ": another query or an old driver is using the same consumer";
      return List.of();
    }
    state = State.ADVANCING;
    return CommitLagRule.catchUp(end, consumerNow);
  }

  /** The advances succeeded, or failed with an offset conflict ({@code fenced = true}). */
  public void consumerAdvanced(boolean fenced, String why) {
    expect(State.ADVANCING);
    Objects.requireNonNull(why, "why");
    state = fenced ? State.FENCED : State.DONE;
    reason = fenced ? why : "";
  }

  /**
   * The attempt failed before the sink committed: the batch is replayed with the same ranges
   * (at-least-once may then write some rows twice; the idempotent receiver overwrites them).
   */
  public void abandoned(String why) {
    Objects.requireNonNull(why, "why");
    if (state != State.PLANNED && state != State.WRITING) {
      throw new IllegalStateException(
          "batch " + batchId + " cannot be abandoned in state " + state);
    }
    state = State.REPLAY;
    reason = why;
  }

  private void expect(State wanted) {
    if (state != wanted) {
      throw new IllegalStateException(
          "batch " + batchId + " is in state " + state + ", expected " + wanted);
    }
  }

  private void move(State from, State to) {
    expect(from);
    state = to;
    reason = "";
  }
}
