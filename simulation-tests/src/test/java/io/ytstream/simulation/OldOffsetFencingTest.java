package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where {@code old_offset} fences a stale advance and where it adds nothing, on the cluster the
 * simulation runs: a late one-call advance without it moves the consumer back (what {@link
 * Mutant#OMIT_OLD_OFFSET} does outside a batch transaction), with it the advance fails with 3100;
 * inside a batch transaction a concurrent advance of the same row makes the commit fail whether
 * {@code old_offset} is given or not, which is why the mutant is caught only outside one.
 */
class OldOffsetFencingTest {

  private static final QueueId QUEUE = QueueId.of("primary", "//sim/queue0");
  private static final PartitionId PARTITION = new PartitionId(QUEUE, 0);

  private InMemorySimCluster cluster;
  private ConsumerOffsets offsets;

  @BeforeEach
  void setUp() {
    cluster = new InMemorySimCluster();
    cluster.createQueue(QUEUE, 1);
    cluster.createConsumer(Workload.CONSUMER, List.of(QUEUE));
    offsets = cluster.ports().consumerOffsets();
    offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.of(0), 4);
  }

  private long consumer() {
    return offsets.read(Workload.CONSUMER, QUEUE).getOrDefault(PARTITION, -1);
  }

  @Test
  void aLateAdvanceWithoutOldOffsetMovesTheConsumerBack() {
    // The old driver read 4 and sends 4 -> 6; a newer driver moves the consumer to 9 first.
    offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.of(4), 9);
    offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.empty(), 6);
    assertEquals(6, consumer());
  }

  @Test
  void aLateAdvanceWithOldOffsetIsRejected() {
    offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.of(4), 9);
    YtException e =
        assertThrows(
            YtException.class,
            () -> offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.of(4), 6));
    assertTrue(e.hasCode(YtErrorCode.CONSUMER_OFFSET_CONFLICT), e.getMessage());
    assertEquals(9, consumer());
  }

  @Test
  void inABatchTransactionTheFirstCommitterWinsWithOrWithoutOldOffset() {
    for (boolean withOldOffset : new boolean[] {false, true}) {
      long before = consumer();
      OptionalLong old = withOldOffset ? OptionalLong.of(before) : OptionalLong.empty();
      TabletTransaction batch = cluster.ports().transactions().start(Duration.ofSeconds(30));
      assertEquals(
          before, batch.readConsumer(Workload.CONSUMER, QUEUE).getOrDefault(PARTITION, -1));
      // A newer driver's batch commits an advance of the same row after this one started.
      offsets.advance(Workload.CONSUMER, PARTITION, OptionalLong.of(before), before + 5);
      batch.advanceConsumer(Workload.CONSUMER, PARTITION, old, before + 2);
      YtException e = assertThrows(YtException.class, batch::commit, "old_offset " + old);
      assertTrue(e.hasCode(YtErrorCode.TRANSACTION_LOCK_CONFLICT), e.getMessage());
      assertEquals(before + 5, consumer(), "old_offset " + old);
    }
  }
}
