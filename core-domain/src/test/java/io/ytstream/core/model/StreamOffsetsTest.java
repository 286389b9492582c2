package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StreamOffsetsTest {

  private static final QueueId A = QueueId.of("a", "//q");
  private static final QueueId B = QueueId.of("b", "//q");

  private static PartitionId a(int i) {
    return new PartitionId(A, i);
  }

  private static PartitionId b(int i) {
    return new PartitionId(B, i);
  }

  @Test
  void emptyIsShared() {
    assertSame(StreamOffsets.empty(), StreamOffsets.empty());
    assertTrue(StreamOffsets.empty().isEmpty());
    assertEquals(0, StreamOffsets.empty().size());
    assertEquals(0, StreamOffsets.empty().total());
    assertEquals(StreamOffsets.empty(), StreamOffsets.of(Map.of()));
  }

  @Test
  void ofSortsAndCopies() {
    HashMap<PartitionId, Long> source = new HashMap<>();
    source.put(b(0), 5L);
    source.put(a(10), 3L);
    source.put(a(2), 1L);
    StreamOffsets offsets = StreamOffsets.of(source);
    source.put(a(0), 9L);
    assertEquals(List.of(a(2), a(10), b(0)), List.copyOf(offsets.asMap().keySet()));
    assertEquals(3, offsets.size());
    assertFalse(offsets.isEmpty());
    assertEquals(9, offsets.total());
    assertThrows(UnsupportedOperationException.class, () -> offsets.asMap().put(a(1), 1L));
  }

  @Test
  void rejectsNegativeAndNullOffsets() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StreamOffsets.of(Map.of(a(1), -1L)));
    assertEquals("offset of a://q#1 must be >= 0 (first unprocessed row), got -1", e.getMessage());
    HashMap<PartitionId, Long> withNull = new HashMap<>();
    withNull.put(a(0), null);
    assertThrows(IllegalArgumentException.class, () -> StreamOffsets.of(withNull));
    HashMap<PartitionId, Long> nullKey = new HashMap<>();
    nullKey.put(null, 1L);
    assertThrows(NullPointerException.class, () -> StreamOffsets.of(nullKey));
    assertThrows(IllegalArgumentException.class, () -> StreamOffsets.ofQueue(A, Map.of(0, -5L)));
    assertThrows(IllegalArgumentException.class, () -> StreamOffsets.ofQueue(A, Map.of(-1, 5L)));
    assertThrows(IllegalArgumentException.class, () -> StreamOffsets.empty().with(a(0), -1));
    StreamOffsets zero = StreamOffsets.of(Map.of(a(0), 0L));
    assertEquals(0, zero.getOrDefault(a(0), 7));
  }

  @Test
  void ofQueue() {
    StreamOffsets offsets = StreamOffsets.ofQueue(A, Map.of(1, 7L, 0, 42L));
    assertEquals(StreamOffsets.of(Map.of(a(0), 42L, a(1), 7L)), offsets);
  }

  @Test
  void getAndDefault() {
    StreamOffsets offsets = StreamOffsets.of(Map.of(a(0), 4L));
    assertEquals(OptionalLong.of(4), offsets.get(a(0)));
    assertEquals(OptionalLong.empty(), offsets.get(a(1)));
    assertEquals(4, offsets.getOrDefault(a(0), 99));
    assertEquals(99, offsets.getOrDefault(a(1), 99));
  }

  @Test
  void withOverlayForQueue() {
    StreamOffsets base = StreamOffsets.of(Map.of(a(0), 1L, a(1), 2L, b(0), 3L));
    StreamOffsets changed = base.with(a(1), 20L).with(b(5), 50L);
    assertEquals(StreamOffsets.of(Map.of(a(0), 1L, a(1), 20L, b(0), 3L, b(5), 50L)), changed);
    assertEquals(StreamOffsets.of(Map.of(a(0), 1L, a(1), 2L, b(0), 3L)), base);

    StreamOffsets over = StreamOffsets.of(Map.of(a(1), 7L, b(9), 9L));
    assertEquals(
        StreamOffsets.of(Map.of(a(0), 1L, a(1), 7L, b(0), 3L, b(9), 9L)), base.overlay(over));
    assertEquals(StreamOffsets.of(Map.of(a(0), 1L, a(1), 2L)), base.forQueue(A));
    assertEquals(StreamOffsets.of(Map.of(b(0), 3L)), base.forQueue(B));
    assertTrue(base.forQueue(QueueId.of("z", "//q")).isEmpty());
  }

  @Test
  void totalAddsEveryOffset() {
    assertEquals(6, StreamOffsets.of(Map.of(a(0), 1L, a(1), 2L, b(0), 3L)).total());
  }

  @Test
  void isAtOrAfterExhaustive() {
    // Each of two partitions: absent, 0, 1, 2 in both maps.
    long[] values = {-1, 0, 1, 2};
    for (long x0 : values) {
      for (long x1 : values) {
        for (long y0 : values) {
          for (long y1 : values) {
            StreamOffsets x = make(x0, x1);
            StreamOffsets y = make(y0, y1);
            boolean expected =
                (y0 < 0 || Math.max(x0, 0) >= y0) && (y1 < 0 || Math.max(x1, 0) >= y1);
            assertEquals(expected, x.isAtOrAfter(y), x + " vs " + y);
          }
        }
      }
    }
  }

  private static StreamOffsets make(long v0, long v1) {
    TreeMap<PartitionId, Long> m = new TreeMap<>();
    if (v0 >= 0) {
      m.put(a(0), v0);
    }
    if (v1 >= 0) {
      m.put(a(1), v1);
    }
    return StreamOffsets.of(m);
  }

  @Test
  void equalsHashCodeToString() {
    StreamOffsets x = StreamOffsets.of(Map.of(a(0), 1L));
    StreamOffsets y = StreamOffsets.ofQueue(A, Map.of(0, 1L));
    assertEquals(x, y);
    assertEquals(x.hashCode(), y.hashCode());
    assertNotEquals(x, StreamOffsets.of(Map.of(a(0), 2L)));
    assertNotEquals(x.hashCode(), StreamOffsets.of(Map.of(a(0), 2L)).hashCode());
    assertNotEquals(StreamOffsets.empty().hashCode(), x.hashCode());
    assertNotEquals(x, StreamOffsets.of(Map.of(a(1), 1L)));
    assertFalse(x.equals("x"));
    assertFalse(x.equals(null));
    assertEquals("{a://q#0=1}", x.toString());
  }
}
