package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The array form of {@link StreamOffsets}: its map view, its cursor and its builder. */
class StreamOffsetsViewTest {

  private static final QueueId A = QueueId.of("a", "//q");
  private static final QueueId B = QueueId.of("b", "//q");

  private static PartitionId a(int i) {
    return new PartitionId(A, i);
  }

  private static PartitionId b(int i) {
    return new PartitionId(B, i);
  }

  private static TreeMap<PartitionId, Long> sample() {
    TreeMap<PartitionId, Long> m = new TreeMap<>();
    m.put(a(0), 10L);
    m.put(a(3), 13L);
    m.put(a(7), 17L);
    m.put(b(1), 21L);
    m.put(b(2), 0L);
    return m;
  }

  @Test
  void mapViewBehavesLikeTheTreeMapItReplaced() {
    TreeMap<PartitionId, Long> tree = sample();
    SortedMap<PartitionId, Long> view = StreamOffsets.of(tree).asMap();
    assertEquals(tree, view);
    assertEquals(view, tree);
    assertEquals(tree.hashCode(), view.hashCode());
    assertEquals(tree.toString(), view.toString());
    assertEquals(List.copyOf(tree.keySet()), List.copyOf(view.keySet()));
    assertEquals(List.copyOf(tree.values()), List.copyOf(view.values()));
    assertEquals(List.copyOf(tree.entrySet()), List.copyOf(view.entrySet()));
    assertEquals(17L, view.get(a(7)));
    assertNull(view.get(a(4)));
    assertNull(view.get("a://q#7"));
    assertTrue(view.containsKey(b(2)));
    assertFalse(view.containsKey(b(3)));
    assertTrue(view.keySet().contains(a(3)));
    assertTrue(view.entrySet().contains(Map.entry(a(3), 13L)));
    assertFalse(view.entrySet().contains(Map.entry(a(3), 14L)));
    assertEquals(a(0), view.firstKey());
    assertEquals(b(2), view.lastKey());
    assertEquals(tree.headMap(a(7)), view.headMap(a(7)));
    assertEquals(tree.tailMap(a(4)), view.tailMap(a(4)));
    assertEquals(tree.subMap(a(3), b(2)), view.subMap(a(3), b(2)));
    assertEquals(tree.subMap(a(1), a(2)), view.subMap(a(1), a(2)));
    assertTrue(view.subMap(a(1), a(2)).isEmpty());
    assertThrows(NoSuchElementException.class, () -> view.subMap(a(1), a(2)).firstKey());
    assertThrows(IllegalArgumentException.class, () -> view.subMap(b(2), a(0)));
    assertEquals(null, view.comparator());
  }

  @Test
  void mapViewIsReadOnly() {
    SortedMap<PartitionId, Long> view = StreamOffsets.of(sample()).asMap();
    assertThrows(UnsupportedOperationException.class, () -> view.put(a(9), 1L));
    assertThrows(UnsupportedOperationException.class, () -> view.remove(a(0)));
    assertThrows(UnsupportedOperationException.class, view::clear);
    Iterator<Map.Entry<PartitionId, Long>> entries = view.entrySet().iterator();
    Map.Entry<PartitionId, Long> first = entries.next();
    assertThrows(UnsupportedOperationException.class, entries::remove);
    assertThrows(UnsupportedOperationException.class, () -> first.setValue(5L));
    assertEquals(10L, view.get(a(0)));
  }

  @Test
  void cursorFindsInAnyOrder() {
    StreamOffsets offsets = StreamOffsets.of(sample());
    StreamOffsets.Cursor cursor = offsets.cursor();
    assertEquals(13L, cursor.getOrDefault(a(3), -1));
    assertEquals(13L, cursor.getOrDefault(a(3), -1)); // the same again
    assertEquals(-1L, cursor.getOrDefault(a(5), -1));
    assertEquals(21L, cursor.getOrDefault(b(1), -1));
    assertEquals(10L, cursor.getOrDefault(a(0), -1)); // backwards
    assertEquals(17L, cursor.getOrDefault(a(7), -1));
    assertEquals(-1L, cursor.getOrDefault(a(1), -1)); // backwards, absent
    assertEquals(0L, cursor.getOrDefault(b(2), -1));
    assertEquals(-1L, cursor.getOrDefault(b(9), -1));
    assertEquals(-1, cursor.find(b(3)));
    // Random probes agree with look-ups; equal but distinct queue objects included.
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      QueueId queue = random.nextBoolean() ? QueueId.of("a", "//q") : QueueId.of("b", "//q");
      PartitionId p = new PartitionId(queue, random.nextInt(10));
      assertEquals(offsets.getOrDefault(p, -1), cursor.getOrDefault(p, -1), p.toString());
    }
  }

  @Test
  void builderTakesAscendingPartitionsOnly() {
    StreamOffsets built =
        StreamOffsets.builder(2)
            .add(a(0), 10)
            .add(a(3), 13)
            .add(a(7), 17)
            .add(b(1), 21)
            .add(b(2), 0)
            .build();
    assertEquals(StreamOffsets.of(sample()), built);
    StreamOffsets.Builder builder = StreamOffsets.builder(4).add(a(3), 1);
    IllegalArgumentException back =
        assertThrows(IllegalArgumentException.class, () -> builder.add(a(2), 1));
    assertEquals(
        "partitions must be added in ascending order without repeats: a://q#2 after a://q#3",
        back.getMessage());
    assertThrows(IllegalArgumentException.class, () -> builder.add(a(3), 1));
    assertThrows(IllegalArgumentException.class, () -> builder.add(a(4), -1));
    assertThrows(NullPointerException.class, () -> builder.add(null, 1));
    assertEquals(StreamOffsets.of(Map.of(a(3), 1L)), builder.build());
    assertThrows(IllegalStateException.class, builder::build);
    assertTrue(StreamOffsets.builder(0).build().isEmpty());
  }

  @Test
  void positionsAndCopiesKeepValuesApart() {
    StreamOffsets offsets = StreamOffsets.of(sample());
    assertEquals(5, offsets.size());
    assertEquals(b(1), offsets.partitionAt(3));
    assertEquals(21L, offsets.offsetAt(3));
    StreamOffsets changed = offsets.with(a(3), 99).with(a(5), 55).with(b(9), 9).with(a(0), 1);
    assertEquals(13L, offsets.getOrDefault(a(3), -1));
    assertEquals(
        List.of(a(0), a(3), a(5), a(7), b(1), b(2), b(9)), List.copyOf(changed.asMap().keySet()));
    assertEquals(List.of(1L, 99L, 55L, 17L, 21L, 0L, 9L), List.copyOf(changed.asMap().values()));
    assertEquals(offsets, offsets.overlay(StreamOffsets.empty()));
    assertEquals(offsets, StreamOffsets.empty().overlay(offsets));
    assertEquals(StreamOffsets.of(Map.of(a(0), 10L, a(3), 13L, a(7), 17L)), offsets.forQueue(A));
  }
}
