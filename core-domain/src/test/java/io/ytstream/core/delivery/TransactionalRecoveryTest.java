package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TransactionalRecoveryTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("c", "//r");
  private static final PartitionId[] IDS = {
    new PartitionId(Q, 0), new PartitionId(Q, 1), new PartitionId(R, 0)
  };

  /** The recovery table, from the architecture note. A missing consumer row is 0. */
  private static RecoveryDecision oracle(List<OffsetRange> ranges, long[] consumer) {
    boolean allLower = true;
    boolean allUpper = true;
    for (int i = 0; i < ranges.size(); i++) {
      long current = Math.max(consumer[i], 0);
      allLower &= current == ranges.get(i).lower();
      allUpper &= current == ranges.get(i).upper();
    }
    return allLower
        ? RecoveryDecision.COMMIT
        : allUpper ? RecoveryDecision.ALREADY_APPLIED : RecoveryDecision.FENCED;
  }

  private static void exhaustive(int partitions, int maxOffset, int maxConsumer) {
    List<long[]> pairs = new ArrayList<>();
    for (long lower = 0; lower < maxOffset; lower++) {
      for (long upper = lower + 1; upper <= maxOffset; upper++) {
        pairs.add(new long[] {lower, upper});
      }
    }
    int consumerValues = maxConsumer + 2; // -1 = missing row
    int per = pairs.size() * consumerValues;
    int combos = (int) Math.pow(per, partitions);
    int[] counts = new int[3];
    for (int code = 0; code < combos; code++) {
      List<OffsetRange> ranges = new ArrayList<>();
      long[] consumer = new long[partitions];
      TreeMap<PartitionId, Long> rows = new TreeMap<>();
      int c = code;
      for (int i = 0; i < partitions; i++) {
        long[] pair = pairs.get(c % pairs.size());
        c /= pairs.size();
        consumer[i] = c % consumerValues - 1;
        c /= consumerValues;
        ranges.add(new OffsetRange(IDS[i], pair[0], pair[1]));
        if (consumer[i] >= 0) {
          rows.put(IDS[i], consumer[i]);
        }
      }
      RecoveryVerdict verdict = TransactionalRecovery.decide(ranges, StreamOffsets.of(rows));
      RecoveryDecision expected = oracle(ranges, consumer);
      assertEquals(expected, verdict.decision(), ranges + " consumer=" + rows);
      counts[expected.ordinal()]++;
      checkReason(verdict, ranges, consumer);
    }
    for (int n : counts) {
      // Every row of the table is exercised.
      assertEquals(true, n > 0);
    }
  }

  private static void checkReason(
      RecoveryVerdict verdict, List<OffsetRange> ranges, long[] consumer) {
    switch (verdict.decision()) {
      case COMMIT -> assertEquals("consumer is at the batch start", verdict.reason());
      case ALREADY_APPLIED ->
          assertEquals("consumer is at the batch end: applied earlier", verdict.reason());
      case FENCED -> {
        String detail = "some partitions are at the batch start and others at its end";
        for (int i = 0; i < ranges.size(); i++) {
          OffsetRange r = ranges.get(i);
          long current = Math.max(consumer[i], 0);
          if (current != r.lower() && current != r.upper()) {
            detail =
                r.partition()
                    + " is at offset "
                    + current
                    + ", expected "
                    + r.lower()
                    + " (not applied) or "
                    + r.upper()
                    + " (applied)";
            break;
          }
        }
        assertEquals(
            "another writer moved the consumer: "
                + detail
                + ". Is a second query (or an old driver) reading with the same consumer?",
            verdict.reason());
      }
    }
  }

  @Test
  void onePartitionExhaustive() {
    exhaustive(1, 6, 7);
  }

  @Test
  void twoPartitionsExhaustive() {
    exhaustive(2, 4, 5);
  }

  @Test
  void threePartitionsExhaustive() {
    exhaustive(3, 3, 3);
  }

  @Test
  void missingRowIsZero() {
    List<OffsetRange> fromZero = List.of(new OffsetRange(IDS[0], 0, 5));
    assertEquals(
        RecoveryDecision.COMMIT,
        TransactionalRecovery.decide(fromZero, StreamOffsets.empty()).decision());
    List<OffsetRange> fromTwo = List.of(new OffsetRange(IDS[0], 2, 5));
    assertEquals(
        RecoveryDecision.FENCED,
        TransactionalRecovery.decide(fromTwo, StreamOffsets.empty()).decision());
  }

  @Test
  void rejectsEmptyBatchesAndRanges() {
    assertEquals(
        "a transactional batch has at least one non-empty range",
        assertThrows(
                IllegalArgumentException.class,
                () -> TransactionalRecovery.decide(List.of(), StreamOffsets.empty()))
            .getMessage());
    assertEquals(
        "empty range in a batch: c://q#1[3,3)",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    TransactionalRecovery.decide(
                        List.of(new OffsetRange(IDS[0], 0, 1), new OffsetRange(IDS[1], 3, 3)),
                        StreamOffsets.empty()))
            .getMessage());
  }

  @Test
  void verdictRequiresDecisionAndReason() {
    assertThrows(NullPointerException.class, () -> new RecoveryVerdict(null, ""));
    assertThrows(
        NullPointerException.class, () -> new RecoveryVerdict(RecoveryDecision.COMMIT, null));
  }
}
