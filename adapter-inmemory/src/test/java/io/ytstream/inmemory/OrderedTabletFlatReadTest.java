package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A tablet's rows read flat ({@link OrderedTablet#readFlat}) against the rows it stores. */
class OrderedTabletFlatReadTest {

  private static final int CHUNK = FlatRowsChunk.ROWS;
  private static final Set<String> TEXT = Set.of("payload");
  private static final RowLayout LAYOUT = Row.of("id", 0L, "payload", "", "meta", "").layout();

  private final OrderedTablet tablet = new OrderedTablet(0);

  private void append(long count) {
    long first = tablet.totalRowCount();
    for (long i = first; i < first + count; i++) {
      // Every 7th id is null and every 5th payload too; "meta" is a string that is not text.
      Row row =
          Row.adopting(
              LAYOUT, new Object[] {i % 7 == 3 ? null : i, i % 5 == 1 ? null : "p-é" + i, "m" + i});
      tablet.append(row, 1_000 + i, 10 * (i + 1)); // cumulative: 10 * (i + 1) * (i + 2) / 2
    }
  }

  private FlatRowsBatch read(long offset, int limit) {
    return tablet.readFlat(1, offset, limit, TEXT, true, true);
  }

  @Test
  void everyValueReadsAsTheStoredRowsIntLongsUnboxedAndTextAsItsBytes() {
    append(300);
    FlatRowsBatch batch = read(20, 250);

    assertEquals(250, batch.size());
    for (int r = 0; r < batch.size(); r++) {
      long i = 20 + r;
      assertEquals(i, batch.rowIndex(r));
      assertEquals(1, batch.tabletIndex(r));
      assertEquals(LAYOUT, batch.layout(r));
      assertEquals(OptionalLong.of(1_000 + i), batch.timestamp(r));
      assertEquals(OptionalLong.of(10 * (i + 1) * (i + 2) / 2), batch.cumulativeDataWeight(r));
      if (i % 7 == 3) {
        assertFalse(batch.hasLongAt(r, 0));
        assertNull(batch.valueAt(r, 0));
      } else {
        assertTrue(batch.hasLongAt(r, 0));
        assertEquals(i, batch.longAt(r, 0));
        assertEquals(i, batch.valueAt(r, 0));
      }
      if (i % 5 == 1) {
        assertEquals(-1, batch.textLength(r, 1));
        assertNull(batch.valueAt(r, 1));
      } else {
        byte[] expected = ("p-é" + i).getBytes(StandardCharsets.UTF_8);
        assertEquals(expected.length, batch.textLength(r, 1));
        assertEquals(0, batch.textOffset(r, 1));
        assertArrayEquals(expected, batch.textArray(r, 1));
      }
      assertEquals(-1, batch.textLength(r, 2), "a string outside the text columns stays a string");
      assertEquals("m" + i, batch.valueAt(r, 2));
    }
  }

  @Test
  void aRowOfTheBatchEqualsTheStoredRowWithItsTextAsBytes() {
    append(10);
    FlatRowsBatch batch = read(0, 10);
    List<StoredQueueRow> stored = tablet.read(0, 10);

    for (int r = 0; r < 10; r++) {
      StoredQueueRow s = stored.get(r);
      QueueRow expected =
          new QueueRow(
              1,
              s.rowIndex(),
              s.textBytes(TEXT),
              OptionalLong.of(s.timestamp()),
              OptionalLong.of(s.cumulativeDataWeight()));
      assertEquals(expected, batch.row(r));
    }
  }

  @Test
  void aPullEndsAtTheEndOfItsChunkAndTheNextStartsTheFollowingChunk() {
    append(CHUNK + 40);

    FlatRowsBatch first = read(CHUNK - 30, 100);
    FlatRowsBatch next = read(CHUNK, 100);

    assertEquals(30, first.size(), "the rows up to the chunk's end, fewer than asked");
    assertEquals(CHUNK - 1, first.rowIndex(29));
    assertEquals(40, next.size());
    assertEquals(CHUNK, next.rowIndex(0));
    assertEquals((long) CHUNK + 39, next.longAt(39, 0));
    assertNull(read(CHUNK + 40, 100), "nothing past the last row");
  }

  @Test
  void aBatchReadsWhatItsPullSawWhileLaterRowsGrowTheChunk() {
    append(3);
    FlatRowsBatch early = read(0, 100);
    append(5_000);
    FlatRowsBatch late = read(0, 5_003);

    assertEquals(3, early.size());
    assertEquals(5_003, late.size());
    for (int r = 0; r < 3; r++) {
      assertEquals(late.row(r), early.row(r));
    }
    assertEquals(5_002L, late.longAt(5_002, 0));
  }

  @Test
  void trimmedRowsAreNeverReadAndTheirChunksAreDropped() {
    append(2L * CHUNK + 10);
    read(0, CHUNK);
    read(CHUNK, CHUNK);
    read(2L * CHUNK, CHUNK);
    assertEquals(3, tablet.flatChunks());

    tablet.trim(CHUNK + 5);

    assertEquals(2, tablet.flatChunks(), "the chunk wholly trimmed is dropped");
    FlatRowsBatch batch = read(0, 100);
    assertEquals(CHUNK + 5, batch.rowIndex(0), "a pull from a trimmed offset starts at the trim");
    assertEquals(CHUNK + 5L, batch.longAt(0, 0));
  }

  @Test
  void aChunkFirstReadAfterATrimInsideItStartsAtTheFirstStoredRow() {
    append(100);
    tablet.trim(40);

    FlatRowsBatch batch = read(10, 20);

    assertEquals(40, batch.rowIndex(0));
    assertEquals(20, batch.size());
    assertEquals(58L, batch.longAt(18, 0));
  }

  @Test
  void aChunkTrimmedPastTheRowsItHoldsStartsAgainAtTheFirstStoredRow() {
    append(100);
    read(0, 10);
    tablet.trim(50);

    FlatRowsBatch batch = read(50, 20);

    assertEquals(50, batch.rowIndex(0));
    assertEquals(50L, batch.longAt(0, 0));
    assertEquals(1, tablet.flatChunks());
  }

  @Test
  void aRowOfAnotherLayoutEndsTheFlatReadAndIsLeftToTheStoredRows() {
    append(5);
    tablet.append(Row.of("payload", "other", "id", 5L), 2_000, 99);
    append(5);

    FlatRowsBatch before = read(0, 100);

    assertEquals(5, before.size(), "the rows before the one of another layout");
    assertNull(read(5, 100), "the row of another layout is not held flat");
    assertEquals("other", tablet.read(5, 1).get(0).data().get("payload"));
  }
}
