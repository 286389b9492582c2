package io.ytstream.spark;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.commit.ConsumerAdvance;
import io.ytstream.core.delivery.DeliveryMode;
import io.ytstream.core.delivery.OutOfTransactionBatch;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the consumer outside a batch transaction, as core's {@link OutOfTransactionBatch} and
 * commit-lag rule decide: only to an end whose {@code commits/N} entry is written, each partition
 * fenced by its current offset ({@code old_offset}), never backwards, and failing when the consumer
 * is already beyond (another writer).
 */
final class ConsumerCatchUp {

  private static final Logger LOG = LoggerFactory.getLogger(ConsumerCatchUp.class);
  private static final int ATTEMPTS = 3;

  private ConsumerCatchUp() {}

  static StreamOffsets readConsumer(YtCluster cluster, YtSourceSpec spec) {
    StreamOffsets all = StreamOffsets.empty();
    for (QueueId queue : spec.queues()) {
      all = all.overlay(cluster.consumerOffsets().read(spec.consumer(), queue));
    }
    return all;
  }

  /**
   * Brings the consumer level with {@code durableEnd} (the end of a batch Spark has logged as
   * committed) and returns the consumer's offsets afterwards.
   */
  static StreamOffsets bringLevel(YtCluster cluster, YtSourceSpec spec, StreamOffsets durableEnd) {
    // The batch is already durable in Spark's commit log when we get here: replay the states.
    OutOfTransactionBatch batch =
        new OutOfTransactionBatch(DeliveryMode.AT_LEAST_ONCE, -1, durableEnd);
    batch.writing();
    batch.sinkCommitted();
    batch.logCommitted();
    StreamOffsets now = readConsumer(cluster, spec);
    List<ConsumerAdvance> advances = batch.consumerRead(now);
    if (batch.state() == OutOfTransactionBatch.State.FENCED) {
      throw new IllegalStateException(
          "consumer "
              + spec.consumer()
              + " cannot be advanced: "
              + batch.reason().replace("batch -1", "the last committed batch"));
    }
    StreamOffsets after = now;
    for (ConsumerAdvance advance : advances) {
      String fenced = advance(cluster, spec, advance);
      if (fenced != null) {
        batch.consumerAdvanced(true, fenced);
        throw new IllegalStateException(
            "consumer " + spec.consumer() + " was moved by another writer: " + fenced);
      }
      after = after.with(advance.partition(), advance.newOffset());
    }
    batch.consumerAdvanced(false, "");
    if (!advances.isEmpty()) {
      LOG.debug("consumer {} advanced: {}", spec.consumer(), advances);
    }
    return after;
  }

  /**
   * One fenced advance. An error whose outcome is unknown is resolved by re-reading the offset: at
   * the new offset it landed, at the old one it is tried again, anywhere else another writer moved
   * it. Returns null on success, the fencing reason otherwise.
   */
  private static String advance(YtCluster cluster, YtSourceSpec spec, ConsumerAdvance advance) {
    RuntimeException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        cluster
            .consumerOffsets()
            .advance(
                spec.consumer(),
                advance.partition(),
                OptionalLong.of(advance.oldOffset()),
                advance.newOffset());
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
              cluster
                  .consumerOffsets()
                  .read(spec.consumer(), advance.partition().queue())
                  .getOrDefault(advance.partition(), 0);
        } catch (RuntimeException readError) {
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
        LOG.debug("advance of {} failed ({}), trying again", advance, outcome);
      }
    }
    throw last;
  }
}
