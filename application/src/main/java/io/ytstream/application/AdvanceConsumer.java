package io.ytstream.application;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.commit.ConsumerAdvance;
import io.ytstream.core.delivery.DeliveryMode;
import io.ytstream.core.delivery.OutOfTransactionBatch;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.ConsumerOffsets;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Moves the consumer outside a batch transaction, as core's {@link OutOfTransactionBatch} and
 * commit-lag rule decide: only to an end whose {@code commits/N} entry is written, each partition
 * fenced by its current offset ({@code old_offset}), never backwards, and failing when the consumer
 * is already beyond (another writer). An advance whose outcome is unknown is resolved by re-reading
 * the consumer row: at the new offset it landed, at the old one it is tried again, anywhere else
 * another writer moved it.
 */
public final class AdvanceConsumer {

  /** Attempts of one partition's advance while its outcome stays unresolved. */
  static final int ATTEMPTS = 3;

  private final ConsumerOffsets offsets;
  private final ConsumerId consumer;
  private final List<QueueId> queues;

  public AdvanceConsumer(ConsumerOffsets offsets, ConsumerId consumer, List<QueueId> queues) {
    this.offsets = Objects.requireNonNull(offsets, "offsets");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.queues = List.copyOf(queues);
  }

  /** The consumer's offsets over every queue (a missing row is offset 0). */
  public StreamOffsets read() {
    StreamOffsets all = StreamOffsets.empty();
    for (QueueId queue : queues) {
      all = all.overlay(offsets.read(consumer, queue));
    }
    return all;
  }

  /**
   * Brings the consumer level with {@code durableEnd} (the end of a batch Spark has logged as
   * committed) and returns the consumer's offsets afterwards.
   *
   * @throws ConsumerFencedException when another writer moved the consumer
   */
  public StreamOffsets bringLevel(StreamOffsets durableEnd) {
    // The batch is already durable in Spark's commit log when we get here: replay the states up to
    // the consumer read, which decides the advances; nothing reads the state after them.
    OutOfTransactionBatch batch =
        new OutOfTransactionBatch(DeliveryMode.AT_LEAST_ONCE, -1, durableEnd);
    batch.writing();
    batch.sinkCommitted();
    batch.logCommitted();
    StreamOffsets now = read();
    List<ConsumerAdvance> advances = batch.consumerRead(now);
    if (batch.state() == OutOfTransactionBatch.State.FENCED) {
      throw new ConsumerFencedException(
          "consumer "
              + consumer
              + " cannot be advanced: "
              + batch.reason().replace("batch -1", "the last committed batch"));
    }
    StreamOffsets after = now;
    for (ConsumerAdvance advance : advances) {
      String fenced = advance(advance);
      if (fenced != null) {
        throw new ConsumerFencedException(
            "consumer " + consumer + " was moved by another writer: " + fenced);
      }
      after = after.with(advance.partition(), advance.newOffset());
    }
    return after;
  }

  /** One fenced advance. Returns null on success, the fencing reason otherwise. */
  private String advance(ConsumerAdvance advance) {
    OptionalLong old = OptionalLong.of(advance.oldOffset());
    RuntimeException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        offsets.advance(consumer, advance.partition(), old, advance.newOffset());
        return null;
      } catch (RuntimeException e) {
        last = e;
        CommitOutcome outcome = CommitErrorClassifier.classify(e);
        if (outcome == CommitOutcome.FAILED || Interruptions.isInterruption(e)) {
          throw e;
        }
        long current;
        try {
          current =
              offsets
                  .read(consumer, advance.partition().queue())
                  .getOrDefault(advance.partition(), 0);
        } catch (RuntimeException readError) {
          if (Interruptions.isInterruption(readError)) {
            // The query is stopping: Spark ends the stop cleanly only on the interruption itself.
            readError.addSuppressed(e);
            throw readError;
          }
          e.addSuppressed(readError);
          throw e;
        }
        if (current == advance.newOffset()) {
          return null;
        }
        if (current != advance.oldOffset()) {
          return advance.partition()
              + " is at "
              + current
              + ", expected "
              + advance.oldOffset()
              + " or "
              + advance.newOffset()
              + " ("
              + e.getMessage()
              + ")";
        }
      }
    }
    throw last;
  }
}
