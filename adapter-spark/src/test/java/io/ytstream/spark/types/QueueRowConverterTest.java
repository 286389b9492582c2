package io.ytstream.spark.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * The converter reads by position, cached per layout: rows of other layouts must still be right.
 */
class QueueRowConverterTest {

  private static final PartitionId PARTITION = new PartitionId(QueueId.of("primary", "//q"), 0);

  private final QueueRowConverter converter =
      new QueueRowConverter(
          List.of(
              ColumnSpec.forRead("id", YtType.optional(YtPrimitive.INT64), true),
              ColumnSpec.forRead("payload", YtType.optional(YtPrimitive.STRING), true),
              ColumnSpec.systemColumn(ColumnSpec.TIMESTAMP, YtPrimitive.UINT64)),
          true,
          false);

  private static QueueRow queueRow(long index, Row data) {
    return new QueueRow(0, index, data, OptionalLong.of(100 + index), OptionalLong.empty());
  }

  @Test
  void rowsOfDifferentLayoutsInOneReaderConvertByName() {
    RowLayout schemaOrder = RowLayout.of("id", "payload");
    RowLayout swapped = RowLayout.of("payload", "id");
    RowLayout partial = RowLayout.of("payload");
    List<QueueRow> rows =
        List.of(
            queueRow(0, Row.adopting(schemaOrder, new Object[] {1L, "a"})),
            queueRow(1, Row.adopting(schemaOrder, new Object[] {2L, "b"})),
            queueRow(2, Row.adopting(swapped, new Object[] {"c", 3L})),
            queueRow(3, Row.adopting(partial, new Object[] {"d"})),
            queueRow(4, Row.adopting(schemaOrder, new Object[] {5L, null})));
    long[] ids = {1, 2, 3, -1, 5};
    String[] payloads = {"a", "b", "c", "d", null};
    for (int i = 0; i < rows.size(); i++) {
      InternalRow out = converter.convert(PARTITION, rows.get(i));
      assertEquals(5, out.numFields());
      if (ids[i] < 0) {
        assertTrue(out.isNullAt(0));
      } else {
        assertEquals(ids[i], out.getLong(0));
      }
      if (payloads[i] == null) {
        assertTrue(out.isNullAt(1));
      } else {
        assertEquals(UTF8String.fromString(payloads[i]), out.getUTF8String(1));
      }
      assertEquals(100 + i, out.getLong(2));
      assertEquals(0L, out.getLong(3));
      assertEquals(i, out.getLong(4));
    }
  }

  @Test
  void aColumnMissingFromEveryRowIsNull() {
    InternalRow out = converter.convert(PARTITION, queueRow(0, Row.of("other", 9L)));
    assertTrue(out.isNullAt(0));
    assertTrue(out.isNullAt(1));
  }

  @Test
  void aReusedRowTakesEachRowsValuesAndTextPointsIntoTheAnswer() {
    byte[] answer = "..abc..de".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    RowLayout layout = RowLayout.of("id", "payload");
    InternalRow first =
        converter.convertReusing(
            PARTITION,
            queueRow(0, Row.adopting(layout, new Object[] {1L, new TextSlice(answer, 2, 3)})));
    assertEquals(1L, first.getLong(0));
    assertEquals(UTF8String.fromString("abc"), first.getUTF8String(1));
    InternalRow kept = first.copy();

    InternalRow second =
        converter.convertReusing(
            PARTITION,
            queueRow(1, Row.adopting(layout, new Object[] {null, new TextSlice(answer, 7, 2)})));

    assertSame(first, second, "one row, overwritten");
    assertTrue(second.isNullAt(0));
    assertEquals(UTF8String.fromString("de"), second.getUTF8String(1));
    assertEquals(1, second.getLong(4));
    assertEquals(UTF8String.fromString("abc"), kept.getUTF8String(1), "a copy keeps its values");
    assertNotSame(
        converter.convert(PARTITION, queueRow(2, Row.of("id", 3L))),
        converter.convert(PARTITION, queueRow(3, Row.of("id", 4L))),
        "convert makes a new row each time");
  }

  /** A flat batch over one array of text: int64s unboxed, text as ranges, as an adapter's. */
  private static QueueRowBatch flat(byte[] text, long[] ids, int[][] ranges) {
    RowLayout layout = RowLayout.of("id", "payload");
    return new QueueRowBatch() {
      @Override
      public int size() {
        return ids.length;
      }

      @Override
      public QueueRow row(int row) {
        return queueRow(row, Row.adopting(layout, new Object[] {valueAt(row, 0), valueAt(row, 1)}));
      }

      @Override
      public long rowIndex(int row) {
        return row;
      }

      @Override
      public int tabletIndex(int row) {
        return 0;
      }

      @Override
      public RowLayout layout(int row) {
        return layout;
      }

      @Override
      public Object valueAt(int row, int position) {
        return position == 0 ? ids[row] : new TextSlice(text, ranges[row][0], ranges[row][1]);
      }

      @Override
      public OptionalLong timestamp(int row) {
        return OptionalLong.of(100 + row);
      }

      @Override
      public OptionalLong cumulativeDataWeight(int row) {
        return OptionalLong.empty();
      }

      @Override
      public boolean hasLongAt(int row, int position) {
        return position == 0;
      }

      @Override
      public long longAt(int row, int position) {
        return ids[row];
      }

      @Override
      public int textLength(int row, int position) {
        return position == 1 ? ranges[row][1] : -1;
      }

      @Override
      public byte[] textArray(int row, int position) {
        return text;
      }

      @Override
      public int textOffset(int row, int position) {
        return ranges[row][0];
      }
    };
  }

  @Test
  void aBatchConvertsAsItsRowsDoWhetherItsValuesAreHeldUnboxedOrAsTheRowsOwn() {
    byte[] text = "abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    QueueRowBatch unboxed = flat(text, new long[] {1, 2}, new int[][] {{0, 2}, {2, 4}});
    List<QueueRow> rows =
        List.of(
            queueRow(0, Row.of("id", 1L, "payload", "a")),
            queueRow(1, Row.of("payload", null)),
            queueRow(2, Row.of("other", 3L)));
    QueueRowBatch boxed = QueueRowBatch.of(rows);
    for (QueueRowBatch batch : List.of(unboxed, boxed)) {
      for (int i = 0; i < batch.size(); i++) {
        InternalRow expected = converter.convert(PARTITION, batch.row(i));
        InternalRow actual = converter.convertReusing(PARTITION, batch, i);
        assertEquals(expected, actual.copy(), "row " + i);
      }
    }
    assertEquals(
        UTF8String.fromString("cdef"),
        converter.convertReusing(PARTITION, unboxed, 1).getUTF8String(1));
  }
}
