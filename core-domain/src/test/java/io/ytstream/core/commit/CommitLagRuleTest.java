package io.ytstream.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CommitLagRuleTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("c", "//r");
  private static final PartitionId[] IDS = {
    new PartitionId(Q, 0), new PartitionId(Q, 1), new PartitionId(R, 0)
  };

  /** Checks catchUp and partitionsAhead against the rules, and applying the advances. */
  private static void check(StreamOffsets durableEnd, StreamOffsets consumer, String ctx) {
    List<ConsumerAdvance> advances = CommitLagRule.catchUp(durableEnd, consumer);
    List<ConsumerAdvance> expected = new ArrayList<>();
    List<PartitionId> expectedAhead = new ArrayList<>();
    for (Map.Entry<PartitionId, Long> e : durableEnd.asMap().entrySet()) {
      long current = consumer.get(e.getKey()).orElse(0);
      if (current < e.getValue()) {
        expected.add(new ConsumerAdvance(e.getKey(), current, e.getValue()));
      }
      if (consumer.get(e.getKey()).isPresent() && current > e.getValue()) {
        expectedAhead.add(e.getKey());
      }
    }
    assertEquals(expected, advances, ctx);
    assertEquals(expectedAhead, CommitLagRule.partitionsAhead(durableEnd, consumer), ctx);

    // Applying the advances: never beyond durableEnd, every partition brought level, the rest
    // untouched.
    TreeMap<PartitionId, Long> after = new TreeMap<>(consumer.asMap());
    for (ConsumerAdvance a : advances) {
      assertEquals(consumer.getOrDefault(a.partition(), 0), a.oldOffset(), ctx + ": old offset");
      assertEquals(durableEnd.get(a.partition()).getAsLong(), a.newOffset(), ctx + ": never ahead");
      after.put(a.partition(), a.newOffset());
    }
    StreamOffsets level = StreamOffsets.of(after);
    assertTrue(level.isAtOrAfter(durableEnd), ctx + ": brought level");
    assertEquals(List.of(), CommitLagRule.catchUp(durableEnd, level), ctx + ": idempotent");
    for (PartitionId p : consumer.asMap().keySet()) {
      if (durableEnd.get(p).isEmpty()
          || consumer.getOrDefault(p, 0) >= durableEnd.getOrDefault(p, 0)) {
        assertEquals(consumer.get(p), level.get(p), ctx + ": untouched " + p);
      }
    }
  }

  @Test
  void exhaustiveThreePartitions() {
    // Each partition: durable end absent or 0..3; consumer absent or 0..4.
    int cases = 0;
    for (int code = 0; code < (int) Math.pow(5 * 6, 3); code++) {
      TreeMap<PartitionId, Long> end = new TreeMap<>();
      TreeMap<PartitionId, Long> consumer = new TreeMap<>();
      int c = code;
      for (PartitionId p : IDS) {
        long e = c % 5 - 1;
        c /= 5;
        long k = c % 6 - 1;
        c /= 6;
        if (e >= 0) {
          end.put(p, e);
        }
        if (k >= 0) {
          consumer.put(p, k);
        }
      }
      check(
          StreamOffsets.of(end),
          StreamOffsets.of(consumer),
          "end=" + end + " consumer=" + consumer);
      cases++;
    }
    assertEquals(27000, cases);
  }

  @Test
  void randomizedLargeOffsets() {
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      TreeMap<PartitionId, Long> end = new TreeMap<>();
      TreeMap<PartitionId, Long> consumer = new TreeMap<>();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) {
        PartitionId p = new PartitionId(random.nextBoolean() ? Q : R, random.nextInt(20));
        long base = random.nextLong(Long.MAX_VALUE / 2);
        if (random.nextInt(4) > 0) {
          end.put(p, base);
        }
        if (random.nextInt(4) > 0) {
          consumer.put(p, Math.max(0, base + random.nextLong(-3, 4)));
        }
      }
      check(StreamOffsets.of(end), StreamOffsets.of(consumer), "seed=" + seed);
    }
  }

  @Test
  void examples() {
    StreamOffsets end = StreamOffsets.ofQueue(Q, Map.of(0, 10L, 1, 5L, 2, 7L));
    StreamOffsets consumer = StreamOffsets.ofQueue(Q, Map.of(0, 4L, 1, 9L, 3, 100L));
    assertEquals(
        List.of(
            new ConsumerAdvance(new PartitionId(Q, 0), 4, 10),
            new ConsumerAdvance(new PartitionId(Q, 2), 0, 7)),
        CommitLagRule.catchUp(end, consumer));
    assertEquals(List.of(new PartitionId(Q, 1)), CommitLagRule.partitionsAhead(end, consumer));
  }

  @Test
  void consumerAdvanceValidation() {
    PartitionId p = IDS[0];
    for (long from = -1; from <= 4; from++) {
      for (long to = -1; to <= 4; to++) {
        long f = from;
        long t = to;
        if (from >= 0 && to > from) {
          ConsumerAdvance a = new ConsumerAdvance(p, f, t);
          assertEquals(f, a.oldOffset());
          assertEquals(t, a.newOffset());
        } else {
          assertEquals(
              "an advance of c://q#0 must move forward, got " + f + " -> " + t,
              assertThrows(IllegalArgumentException.class, () -> new ConsumerAdvance(p, f, t))
                  .getMessage());
        }
      }
    }
    assertThrows(NullPointerException.class, () -> new ConsumerAdvance(null, 0, 1));
  }
}
