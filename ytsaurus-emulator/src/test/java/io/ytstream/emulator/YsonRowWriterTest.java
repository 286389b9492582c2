package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The row-by-row YSON writer against the node path it replaces: every row converted by {@link
 * TypedYson#toYson} into a map node and written by {@link YsonBytes#listFragment}, byte for byte,
 * in binary and text, for scalar and composite columns, nulls, untyped columns and rows of two
 * layouts in one answer; and its cut at {@code max_data_weight} against {@link RowDataWeight}.
 */
class YsonRowWriterTest {

  private static final Map<String, YtType> TYPES = types();

  private static Map<String, YtType> types() {
    Map<String, YtType> types = new LinkedHashMap<>();
    types.put("i", YtPrimitive.INT64);
    types.put("i8", YtPrimitive.INT8);
    types.put("u", YtPrimitive.UINT64);
    types.put("ts", YtPrimitive.TIMESTAMP);
    types.put("s", YtPrimitive.STRING);
    types.put("t", YtType.tagged("tag", YtPrimitive.UTF8));
    types.put("o", YtType.optional(YtPrimitive.INT32));
    types.put("oo", YtType.optional(YtType.optional(YtPrimitive.BOOL)));
    types.put("x", YtPrimitive.DOUBLE);
    types.put("b", YtPrimitive.BOOL);
    types.put("y", YtPrimitive.YSON);
    types.put("dec", YtType.decimal(5, 2));
    types.put("l", YtType.list(YtPrimitive.UINT8));
    types.put(
        "st",
        YtType.struct(
            YtType.member("a", YtPrimitive.INT64),
            YtType.member("b", YtType.optional(YtPrimitive.STRING))));
    types.put("d", YtType.dict(YtPrimitive.STRING, YtPrimitive.UINT32));
    types.put("vs", YtType.variantStruct(YtType.member("n", YtPrimitive.INT16)));
    return types;
  }

  private static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    rows.add(
        Row.of(
            "$tablet_index",
            3L,
            "$row_index",
            12L,
            "i",
            -5L,
            "i8",
            7L,
            "u",
            -1L,
            "ts",
            1_700_000_000_000_000L,
            "s",
            "caf\u00e9 \"q\"\n",
            "t",
            "\ud83d\ude00",
            "o",
            4L,
            "oo",
            List.of(true),
            "x",
            -0.5,
            "b",
            false,
            "y",
            new YsonAttributed(Map.of("k", 1L), List.of("a", 2L)),
            "dec",
            new BigDecimal("12.34"),
            "l",
            List.of(1L, 255L),
            "st",
            Map.of("a", 1L, "b", "z"),
            "d",
            List.of(List.of("k", 9L)),
            "vs",
            List.of("n", 3L)));
    rows.add(
        Row.of(
            "i",
            null,
            "s",
            new byte[] {(byte) 0xff, 0},
            "oo",
            Collections.singletonList(null),
            "y",
            2,
            "untyped",
            "v"));
    rows.add(
        Row.of("i", 1L, "s", "", "oo", null, "y", new YsonUint64(7), "untyped", Map.of("m", 1.5)));
    return rows;
  }

  /** The node path: each row a map of {@link TypedYson#toYson} nodes, written whole. */
  private static byte[] viaNodes(List<Row> rows, boolean binary) {
    List<Object> nodes = new ArrayList<>();
    for (Row row : rows) {
      Map<String, Object> node = new LinkedHashMap<>();
      row.asMap()
          .forEach((column, value) -> node.put(column, TypedYson.toYson(TYPES.get(column), value)));
      nodes.add(node);
    }
    return YsonBytes.listFragment(nodes, binary);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void writesTheBytesOfTheNodePath(boolean binary) {
    List<Row> rows = rows();
    assertArrayEquals(
        viaNodes(rows, binary), YsonRowWriter.write(rows, TYPES, binary, Long.MAX_VALUE));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void writesAnEmptyAnswerAsNoBytes(boolean binary) {
    assertEquals(0, YsonRowWriter.write(List.of(), TYPES, binary, Long.MAX_VALUE).length);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void growsPastItsFirstGuessOfTheSize(boolean binary) {
    String big = "x".repeat(100_000);
    List<Row> rows = List.of(Row.of("s", big, "i", 1L), Row.of("s", big, "i", 2L));
    assertArrayEquals(
        viaNodes(rows, binary), YsonRowWriter.write(rows, TYPES, binary, Long.MAX_VALUE));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void writesAnInt64AndAStringAsTheServerDoes(boolean binary) {
    byte[] expected =
        binary
            ? new byte[] {'{', 1, 2, 'i', '=', 2, 3, ';', 1, 2, 's', '=', 1, 2, 'a', ';', '}', ';'}
            : "{\"i\"=-2;\"s\"=\"a\";};\n".getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(
        expected,
        YsonRowWriter.write(List.of(Row.of("i", -2L, "s", "a")), TYPES, binary, Long.MAX_VALUE));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void endsWithTheRowThatTakesTheWeightToTheLimitAsRowDataWeightCountsIt(boolean binary) {
    List<Row> rows = new ArrayList<>(rows());
    rows.add(
        Row.of("s", "\ud83d\ude00 and a lone \ud800", "t", "\u00e9", "untyped", List.of("ab", 1L)));
    long total = 0;
    List<Long> cumulative = new ArrayList<>();
    for (Row row : rows) {
      total += RowDataWeight.of(row, TYPES);
      cumulative.add(total);
    }
    for (long limit = 0; limit <= total + 1; limit++) {
      // Rows go while the weight so far is below the limit (ordered_dynamic_store.cpp).
      int kept = 1;
      while (kept < rows.size() && cumulative.get(kept - 1) < limit) {
        kept++;
      }
      assertArrayEquals(
          viaNodes(rows.subList(0, kept), binary),
          YsonRowWriter.write(rows, TYPES, binary, limit),
          "limit " + limit);
    }
  }

  /**
   * Pulled rows are written straight from the queue rows: the bytes of the rows {@link PulledRows}
   * builds, for rows with and without {@code $timestamp} and {@code $cumulative_data_weight}, a
   * data column that repeats a system column's name, and at every weight limit.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void writesPulledRowsAsTheRowsTheyStandFor(boolean binary) {
    List<QueueRow> queueRows = new ArrayList<>();
    long index = 0;
    for (Row data : rows()) {
      Row plain = data.without("$tablet_index").without("$row_index");
      queueRows.add(new QueueRow(2, index++, plain, OptionalLong.empty(), OptionalLong.empty()));
      queueRows.add(new QueueRow(2, index++, plain, OptionalLong.of(1L << 40), OptionalLong.of(9)));
    }
    queueRows.add(
        new QueueRow(
            2,
            index++,
            Row.of("s", "x", "$row_index", 5L),
            OptionalLong.empty(),
            OptionalLong.of(3)));
    queueRows.add(
        new QueueRow(2, index, Row.of("i", 300L), OptionalLong.empty(), OptionalLong.empty()));
    PulledRows.Answer answer = PulledRows.answer(queueRows);
    List<Row> built = new ArrayList<>(answer);
    long total = 0;
    for (Row row : built) {
      total += RowDataWeight.of(row);
    }

    for (long limit : List.of(0L, 50L, 200L, 400L, total - 1, total, Long.MAX_VALUE)) {
      assertArrayEquals(
          YsonRowWriter.write(built, TYPES, binary, limit),
          YsonRowWriter.write(answer, TYPES, binary, limit),
          "limit " + limit);
    }
    assertArrayEquals(
        viaNodes(built, binary), YsonRowWriter.write(answer, TYPES, binary, Long.MAX_VALUE));
  }
}
