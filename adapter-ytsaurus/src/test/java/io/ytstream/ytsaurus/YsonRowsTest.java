package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.Row;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The row format against the bytes the server reads and writes: binary YSON as {@code
 * yt/yt/library/formats/format.cpp} serves it (a list fragment of maps, no escaping, wire types
 * kept), and the one-pass decoder's shortcuts against the boundaries where they hand over to the
 * general path.
 */
class YsonRowsTest {

  private static final Map<String, YtType> TYPES =
      Map.of(
          "u", YtPrimitive.UINT64,
          "d", YtPrimitive.DATE,
          "s", YtPrimitive.STRING,
          "x", YtType.decimal(10, 2),
          "l", YtType.list(YtType.optional(YtPrimitive.INT32)),
          "st", YtType.struct(YtType.member("$a", YtPrimitive.UTF8)),
          "f", YtPrimitive.DOUBLE);

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  private static Row typedRow() {
    Map<String, Object> struct = new LinkedHashMap<>();
    struct.put("$a", "ÿ");
    return Row.of(
        "u",
        -1L,
        "d",
        49_672L,
        "s",
        bytes(0, 0xff, '$'),
        "x",
        new BigDecimal("-12.34"),
        "l",
        Arrays.asList(1L, null, -7L),
        "st",
        struct,
        "f",
        -0.0,
        "$tablet_index",
        3L);
  }

  @Test
  void ysonRowsCarryWireTypesAndNeedNoEscaping() {
    byte[] wire = new YsonRows().encode(List.of(typedRow()), TYPES);

    List<Object> parsed = Yson.parseListFragment(wire);
    assertEquals(1, parsed.size());
    Map<?, ?> row = (Map<?, ?>) parsed.get(0);
    assertEquals(new YsonUint64(-1L), row.get("u"), "uint64 as a YSON uint64");
    assertEquals(new YsonUint64(49_672L), row.get("d"), "a date is a uint64");
    assertArrayEquals(bytes(0, 0xff, '$'), (byte[]) row.get("s"), "any bytes");
    assertEquals(3L, row.get("$tablet_index"), "a plain $ key");
    assertTrue(((Map<?, ?>) row.get("st")).containsKey("$a"));
    assertEquals('{', wire[0]);
    assertEquals(0x01, wire[1], "binary YSON: the first key is a binary string");
    assertEquals(';', wire[wire.length - 1], "each row ends with ;");
  }

  @Test
  void typedValuesRoundTrip() {
    YsonRows codec = new YsonRows();
    byte[] wire = codec.encode(List.of(typedRow()), TYPES);
    Map<String, Object> back = codec.decode(wire, TYPES).get(0);
    assertEquals(-1L, back.get("u"));
    assertEquals(49_672L, back.get("d"));
    assertArrayEquals(bytes(0, 0xff, '$'), (byte[]) back.get("s"));
    assertEquals(new BigDecimal("-12.34"), back.get("x"));
    assertEquals(Arrays.asList(1L, null, -7L), back.get("l"));
    assertEquals(Map.of("$a", "ÿ"), back.get("st"));
    assertEquals(-0.0, back.get("f"), "the sign of zero is kept");
    assertEquals(3L, back.get("$tablet_index"));
  }

  @Test
  void rowsOfDifferentLayoutsEachWriteTheirColumnsByTheirTypes() {
    YsonRows codec = new YsonRows();
    byte[] wire =
        codec.encode(
            List.of(
                Row.of("u", -1L, "s", "a"),
                Row.of("s", "b", "u", -2L),
                Row.of("s", "c", "u", -2L),
                Row.of("u", -3L, "s", "d", "$tablet_index", 1L)),
            TYPES);
    List<Object> parsed = Yson.parseListFragment(wire);
    assertEquals(4, parsed.size());
    assertEquals(List.of("u", "s"), List.copyOf(((Map<?, ?>) parsed.get(0)).keySet()));
    assertEquals(List.of("s", "u"), List.copyOf(((Map<?, ?>) parsed.get(1)).keySet()));
    assertEquals(new YsonUint64(-2L), ((Map<?, ?>) parsed.get(2)).get("u"), "uint64 by name");
    assertEquals(1L, ((Map<?, ?>) parsed.get(3)).get("$tablet_index"));
    assertEquals("d", codec.decode(wire, TYPES).get(3).get("s"));
  }

  private static Map<String, Object> decodeOne(Map<String, Object> row, Map<String, YtType> types) {
    List<Map<String, Object>> rows =
        new YsonRows().decode(Yson.toBinaryListFragment(List.of(row)), types);
    assertEquals(1, rows.size());
    return rows.get(0);
  }

  @Test
  void integersKeep64BitsAndUnsignedOnesTheirBits() {
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("i", Long.MIN_VALUE);
    in.put("u", new YsonUint64(-1L));
    in.put("small", new YsonUint64(7));
    in.put("$row_index", 12L);
    in.put("big", new YsonUint64(-1L));

    Map<String, Object> row =
        decodeOne(
            in,
            Map.of(
                "i", YtPrimitive.INT64,
                "u", YtPrimitive.UINT64,
                "small", YtPrimitive.UINT8));

    assertEquals(Long.MIN_VALUE, row.get("i"));
    assertEquals(-1L, row.get("u"), "uint64 max is a Long holding the bits");
    assertEquals(7L, row.get("small"));
    assertEquals(12L, row.get("$row_index"));
    assertEquals(new YsonUint64(-1L), row.get("big"), "an untyped uint64 stays a uint64");
    assertEquals(List.of("i", "u", "small", "$row_index", "big"), List.copyOf(row.keySet()));
  }

  @Test
  void aNegativeOrOversizedIntegerIsRefusedNamingTheColumn() {
    YtTransportException negative =
        assertThrows(
            YtTransportException.class,
            () -> decodeOne(Map.of("u", -1L), Map.of("u", YtPrimitive.UINT32)));
    assertTrue(negative.getMessage().contains("column \"u\""), negative.getMessage());
    YtTransportException oversized =
        assertThrows(
            YtTransportException.class,
            () -> decodeOne(Map.of("i", new YsonUint64(-1L)), Map.of("i", YtPrimitive.INT64)));
    assertTrue(oversized.getMessage().contains("column \"i\""), oversized.getMessage());
  }

  @Test
  void optionalsAndDoublesKeepNullsSignsAndSpecials() {
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("z", -0.0);
    in.put("n", Double.NaN);
    in.put("inf", Double.NEGATIVE_INFINITY);
    in.put("o", null);
    in.put("opt", "x".getBytes(StandardCharsets.UTF_8));
    Map<String, Object> row =
        decodeOne(
            in,
            Map.of(
                "z", YtPrimitive.DOUBLE,
                "n", YtPrimitive.DOUBLE,
                "inf", new YtOptional(YtPrimitive.DOUBLE),
                "o", new YtOptional(YtPrimitive.STRING),
                "opt", new YtOptional(YtPrimitive.STRING)));
    assertEquals(1 / -0.0, 1 / (Double) row.get("z"), "the sign of zero is kept");
    assertTrue(((Double) row.get("n")).isNaN());
    assertEquals(Double.NEGATIVE_INFINITY, row.get("inf"));
    assertTrue(row.containsKey("o"));
    assertNull(row.get("o"));
    assertEquals("x", row.get("opt"));
  }

  @Test
  void ysonAnswersAsTheServerWritesThemDecode() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("$tablet_index", 0L);
    row.put("$row_index", 41L);
    row.put("$timestamp", new YsonUint64(1L << 62));
    row.put("v", "é".getBytes(StandardCharsets.UTF_8));
    row.put("n", new YsonUint64(5));
    row.put("f", Double.NaN);
    byte[] body = Yson.toBinaryListFragment(List.of(row, row));

    List<Map<String, Object>> rows =
        new YsonRows().decode(body, Map.of("v", YtPrimitive.UTF8, "f", YtPrimitive.DOUBLE));

    assertEquals(2, rows.size());
    assertEquals(41L, rows.get(0).get("$row_index"));
    assertEquals(new YsonUint64(1L << 62), rows.get(0).get("$timestamp"));
    assertEquals("é", rows.get(0).get("v"));
    assertEquals(new YsonUint64(5), rows.get(0).get("n"), "untyped: as the wire has it");
    assertTrue(Double.isNaN((Double) rows.get(0).get("f")), "binary doubles carry NaN");
  }

  @Test
  void ysonStringsAreTextWhenTheyAreUtf8AndBytesOtherwise() {
    byte[] replacement = "a\uFFFDb".getBytes(StandardCharsets.UTF_8);
    List<Map<String, Object>> in = new java.util.ArrayList<>();
    for (byte[] value :
        List.of(
            "plain".getBytes(StandardCharsets.US_ASCII),
            "caf\u00e9 \ud83d\ude00".getBytes(StandardCharsets.UTF_8),
            replacement,
            bytes('a', 0xff, 'b'),
            bytes(0xed, 0xa0, 0x80),
            bytes(0xc0, 0x80),
            new byte[0])) {
      in.add(Map.of("s", value, "y", value));
    }
    byte[] body = Yson.toBinaryListFragment(in);

    List<Map<String, Object>> rows = new YsonRows().decode(body, Map.of("s", YtPrimitive.STRING));

    for (String column : List.of("s", "y")) {
      String where = "column " + column;
      assertEquals("plain", rows.get(0).get(column), where);
      assertEquals("caf\u00e9 \ud83d\ude00", rows.get(1).get(column), where);
      assertEquals("a\uFFFDb", rows.get(2).get(column), where + ": a U+FFFD sent as UTF-8 is text");
      assertArrayEquals(bytes('a', 0xff, 'b'), (byte[]) rows.get(3).get(column), where);
      assertArrayEquals(
          bytes(0xed, 0xa0, 0x80), (byte[]) rows.get(4).get(column), where + ": a surrogate");
      assertArrayEquals(
          bytes(0xc0, 0x80), (byte[]) rows.get(5).get(column), where + ": an overlong form");
      assertEquals("", rows.get(6).get(column), where);
    }
  }

  @Test
  void ysonTextKeptAsBytesOnRequestIsTheSameBytesAndUtf8IsStillChecked() {
    List<byte[]> values =
        List.of(
            "plain".getBytes(StandardCharsets.US_ASCII),
            "caf\u00e9 \ud83d\ude00".getBytes(StandardCharsets.UTF_8),
            bytes('a', 0xff, 'b'),
            new byte[0]);
    List<Map<String, Object>> in = new java.util.ArrayList<>();
    for (byte[] value : values) {
      in.add(Map.of("s", value, "t", value.length == 3 ? bytes('x') : value, "y", value));
    }
    byte[] body = Yson.toBinaryListFragment(in);
    Map<String, YtType> types = Map.of("s", YtPrimitive.STRING, "t", YtPrimitive.UTF8);

    List<Map<String, Object>> kept = decodeKeepingText(body, types);

    for (int i = 0; i < values.size(); i++) {
      TextSlice s = (TextSlice) kept.get(i).get("s");
      assertArrayEquals(values.get(i), s.toBytes(), "string, row " + i);
      assertSame(body, s.array(), "a slice of the answer, not a copy");
      byte[] utf8 = i == 2 ? bytes('x') : values.get(i);
      assertArrayEquals(utf8, ((TextSlice) kept.get(i).get("t")).toBytes(), "utf8, row " + i);
    }
    assertEquals("plain", kept.get(0).get("y"), "an untyped column is decoded as before");

    for (byte[] notUtf8 : List.of(bytes('a', 0xff), bytes(0xed, 0xa0, 0x80), bytes(0xc0, 0x80))) {
      byte[] bad = Yson.toBinaryListFragment(List.of(Map.of("t", notUtf8)));
      YtTransportException e =
          assertThrows(YtTransportException.class, () -> decodeKeepingText(bad, types));
      assertTrue(e.getMessage().contains("column \"t\""), e.getMessage());
      assertThrows(YtTransportException.class, () -> new YsonRows().decode(bad, types));
    }
  }

  private static List<Map<String, Object>> decodeKeepingText(
      byte[] body, Map<String, YtType> types) {
    return new YsonRows().decode(body, types, true);
  }

  @Test
  void ysonRowsWhoseColumnsMoveOrChangeLengthKeepTheirNames() {
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("a", 1L);
    first.put("bb", 2L);
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("bbb", 3L);
    second.put("a", 4L);
    Map<String, Object> third = new LinkedHashMap<>();
    third.put("b", 5L);
    third.put("bb", 6L);
    third.put("c", 7L);
    byte[] body = Yson.toBinaryListFragment(List.of(first, second, third, first));

    List<Map<String, Object>> rows = new YsonRows().decode(body, Map.of());

    assertEquals(List.of(first, second, third, first), rows);
    assertEquals(List.of("bbb", "a"), List.copyOf(rows.get(1).keySet()));
  }

  @Test
  void aKeyWrittenWithWhiteSpaceBeforeItsEqualsSignIsReadByNameNotByTheLastRowsBytes() {
    // {a=1};{b =2};{a=3} in binary YSON: the second row's key at the same place is another column,
    // not written as the server writes keys, and the third row's must not be taken for it.
    byte[] body =
        bytes(
            '{', 0x01, 0x02, 'a', '=', 0x02, 0x02, '}', ';', //
            '{', 0x01, 0x02, 'b', ' ', '=', 0x02, 0x04, '}', ';', //
            '{', 0x01, 0x02, 'a', '=', 0x02, 0x06, '}');

    List<Map<String, Object>> rows = new YsonRows().decode(body, Map.of());

    assertEquals(List.of(Map.of("a", 1L), Map.of("b", 2L), Map.of("a", 3L)), rows);
  }

  @Test
  void ysonThatDoesNotFitTheSchemaFailsNamingTheColumn() {
    byte[] body = Yson.toBinaryListFragment(List.of(Map.of("u", -5L)));

    YtTransportException e =
        assertThrows(
            YtTransportException.class,
            () -> new YsonRows().decode(body, Map.of("u", YtPrimitive.UINT8)));

    assertTrue(e.getMessage().contains("column \"u\""), e.getMessage());
    assertThrows(
        YtTransportException.class,
        () -> new YsonRows().decode("{a=1".getBytes(StandardCharsets.US_ASCII), Map.of()));
  }

  @Test
  void malformedBinaryYsonFailsAsATransportErrorNamingTheByte() {
    // An int64 column whose varint runs past 64 bits: the shared lexer's check, the decoder's
    // words.
    byte[] overlong =
        bytes(
            '{', 0x01, 2, 'i', '=', 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0x7f, '}');
    YtTransportException e =
        assertThrows(
            YtTransportException.class,
            () -> new YsonRows().decode(overlong, Map.of("i", YtPrimitive.INT64)));
    assertEquals(
        "a tabular response is not binary YSON rows: varint of a binary int64 overflows 64 bits"
            + " at byte 6",
        e.getMessage());
    // A composite value is read by the tree reader; its error keeps the offset and the path.
    byte[] badList = bytes('{', 0x01, 2, 'l', '=', '[', 0x02, 2, ';', '%', 'x', ']', '}');
    YtTransportException list =
        assertThrows(
            YtTransportException.class,
            () -> new YsonRows().decode(badList, Map.of("l", YtType.list(YtPrimitive.INT64))));
    assertTrue(
        list.getMessage()
            .startsWith(
                "a tabular response is not binary YSON rows: YSON: unknown" + " literal \"%x\""),
        list.getMessage());
    assertTrue(list.getMessage().endsWith("at byte 9 (in /1)"), list.getMessage());
    // The same value, well formed, reads through the same path.
    byte[] goodList = bytes('{', 0x01, 2, 'l', '=', '[', 0x02, 2, ';', 0x02, 3, ']', '}');
    List<Map<String, Object>> rows =
        new YsonRows().decode(goodList, Map.of("l", YtType.list(YtPrimitive.INT64)));
    assertEquals(List.of(1L, -2L), rows.get(0).get("l"));
  }

  @Test
  void theFormatSettingAcceptsOnlyYsonAndNamesItselfInItsError() {
    YtsaurusClientConfig.fromSettings("localhost:1", Map.of("yt.token", "t"));
    YtsaurusClientConfig.fromSettings(
        "localhost:1", Map.of("yt.token", "t", "spark.hadoop.yt.http.format", " YSON"));
    for (String value : List.of("json", "JSON", "arrow")) {
      IllegalArgumentException bad =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  YtsaurusClientConfig.fromSettings(
                      "localhost:1", Map.of("yt.token", "t", "yt.http.format", value)));
      assertEquals(
          "setting yt.http.format="
              + value
              + " is not supported: rows travel as binary YSON only; remove the setting"
              + " (or set it to yson)",
          bad.getMessage());
    }
  }
}
