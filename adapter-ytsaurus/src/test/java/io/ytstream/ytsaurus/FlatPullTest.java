package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.yson.YsonUint64;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The flat answer is filled as the row-by-row collector would build rows, or refuses the answer.
 */
class FlatPullTest {

  private static final PartitionId PARTITION =
      new PartitionId(new QueueId("c", YPath.of("//q")), 2);
  private static final byte[] BODY = "abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private static FlatPull.Collector collector(long offset, int maxRows) {
    return new FlatPull.Collector("pull_queue_consumer", PARTITION, offset, maxRows, BODY);
  }

  private static boolean row(FlatPull.Collector c, long rowIndex, Object id, Object text) {
    c.integer("$tablet_index", 2);
    c.integer("$row_index", rowIndex);
    if (id instanceof Long l) {
      c.integer("id", l);
    } else {
      c.column("id", id);
    }
    if (text instanceof int[] range) {
      c.text("s", BODY, range[0], range[1]);
    } else {
      c.column("s", text);
    }
    c.column("$timestamp", 100L + rowIndex);
    return c.endRow();
  }

  @Test
  void rowsAreTheSameAsTheRowByRowOnesWithValuesOfChangingKindsBoxedOnlyFromThenOn() {
    FlatPull.Collector c = collector(5, 10);
    assertTrue(row(c, 5, 1L, new int[] {0, 2}));
    assertTrue(row(c, 6, null, new int[] {2, 3}));
    assertTrue(row(c, 7, 3L, "str"));
    FlatPull pull = c.pull();

    assertEquals(3, pull.size());
    assertEquals(
        new QueueRow(
            2,
            5,
            Row.of("id", 1L, "s", new TextSlice(BODY, 0, 2)),
            OptionalLong.of(105),
            OptionalLong.empty()),
        pull.row(0));
    assertEquals(Row.of("id", null, "s", new TextSlice(BODY, 2, 3)), pull.row(1).data());
    assertEquals(Row.of("id", 3L, "s", "str"), pull.row(2).data());
    assertEquals(List.of("id", "s"), pull.layout(0).names());
    assertEquals(false, pull.hasLongAt(0, 0), "a null among the longs: held boxed");
    assertEquals(-1, pull.textLength(0, 1), "a String among the text: held as objects");
  }

  @Test
  void aGapEndsTheAnswerAtTheContiguousPrefixAndTheCapEndsIt() {
    FlatPull.Collector c = collector(0, 10);
    assertTrue(row(c, 0, 1L, "a"));
    assertEquals(false, row(c, 2, 2L, "b"));
    assertEquals(1, c.pull().size());

    FlatPull.Collector capped = collector(0, 2);
    assertTrue(row(capped, 0, 1L, "a"));
    assertEquals(false, row(capped, 1, 2L, "b"), "the cap reached stops decoding");
    assertEquals(2, capped.pull().size());
  }

  @Test
  void rowsBelowTheOffsetOrOfAnotherTabletAreRefusedAsByTheRowByRowCollector() {
    YtTransportException below =
        assertThrows(YtTransportException.class, () -> row(collector(5, 10), 4, 1L, "a"));
    assertTrue(below.getMessage().contains("returned row 4, below the offset"), below.getMessage());
    FlatPull.Collector c = collector(0, 10);
    c.integer("$tablet_index", 3);
    c.integer("$row_index", 0);
    YtTransportException tablet = assertThrows(YtTransportException.class, c::endRow);
    assertTrue(tablet.getMessage().contains("returned a row of tablet 3"), tablet.getMessage());
    FlatPull.Collector none = collector(0, 10);
    none.integer("id", 1);
    assertThrows(YtTransportException.class, none::endRow);
  }

  @Test
  void rowsOfOtherColumnsOrARepeatedNameAreNotHeldFlat() {
    FlatPull.Collector c = collector(0, 10);
    assertTrue(row(c, 0, 1L, "a"));
    c.integer("$tablet_index", 2);
    c.integer("$row_index", 1);
    assertThrows(FlatPull.NotFlat.class, () -> c.integer("other", 1));

    FlatPull.Collector repeated = collector(0, 10);
    repeated.integer("$row_index", 0);
    repeated.integer("id", 1);
    repeated.integer("id", 2);
    assertThrows(FlatPull.NotFlat.class, repeated::endRow);
  }

  @Test
  void timestampsAndWeightsAreHeldUnboxedAsTheyCameAndNullsStayAbsent() {
    int rows = 20_000; // past the presized arrays: they grow
    FlatPull.Collector c = collector(0, rows + 1);
    for (int i = 0; i < rows; i++) {
      c.integer("$tablet_index", 2);
      c.integer("$row_index", i);
      c.integer("id", i);
      switch (i % 3) {
        case 0 -> c.unsigned("$timestamp", -1L - i); // uint64 past 2^63: its 64 bits
        case 1 -> c.column("$timestamp", new YsonUint64(7L * i));
        default -> c.column("$timestamp", null);
      }
      if (i % 2 == 0) {
        c.integer("$cumulative_data_weight", 10L * i);
      } else {
        c.column("$cumulative_data_weight", "not an integer");
      }
      assertTrue(c.endRow());
    }
    FlatPull pull = c.pull();
    assertEquals(rows, pull.size());
    for (int i = 0; i < rows; i++) {
      OptionalLong timestamp =
          switch (i % 3) {
            case 0 -> OptionalLong.of(-1L - i);
            case 1 -> OptionalLong.of(7L * i);
            default -> OptionalLong.empty();
          };
      OptionalLong weight = i % 2 == 0 ? OptionalLong.of(10L * i) : OptionalLong.empty();
      assertEquals(timestamp, pull.timestamp(i), "row " + i);
      assertEquals(weight, pull.cumulativeDataWeight(i), "row " + i);
      assertEquals(timestamp, pull.row(i).timestamp(), "row " + i);
    }
  }

  @Test
  void anUnsignedDataValueIsHeldAsTheRowByRowCollectorHoldsIt() {
    FlatPull.Collector c = collector(0, 10);
    c.integer("$tablet_index", 2);
    c.integer("$row_index", 0);
    c.unsigned("id", -1L);
    c.column("s", "a");
    assertTrue(c.endRow());
    assertEquals(Row.of("id", new YsonUint64(-1L), "s", "a"), c.pull().row(0).data());
  }

  @Test
  void anAnswerWithoutRowsIsEmpty() {
    assertEquals(0, collector(0, 10).pull().size());
  }
}
