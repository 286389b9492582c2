package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.YsonUint64;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one-pass decoder's shortcuts (integers Jackson holds as longs, ASCII strings taken as they
 * are) against the boundaries where they must hand over to the general path.
 */
class JsonRowsDecodeTest {

  private static Map<String, Object> decodeOne(String json, Map<String, YtType> types) {
    List<Map<String, Object>> rows =
        new JsonRows().decode(json.getBytes(StandardCharsets.UTF_8), types);
    assertEquals(1, rows.size());
    return rows.get(0);
  }

  @Test
  void integersKeep64BitsAndUnsignedOnesTheirBits() {
    Map<String, Object> row =
        decodeOne(
            "{\"i\":-9223372036854775808,\"u\":18446744073709551615,\"small\":7,"
                + "\"$$row_index\":12,\"big\":18446744073709551615}\n",
            Map.of(
                "i", YtPrimitive.INT64,
                "u", YtPrimitive.UINT64,
                "small", YtPrimitive.UINT8));
    assertEquals(Long.MIN_VALUE, row.get("i"));
    assertEquals(-1L, row.get("u"), "uint64 max is a Long holding the bits");
    assertEquals(7L, row.get("small"));
    assertEquals(12L, row.get("$row_index"));
    assertEquals(new YsonUint64(-1L), row.get("big"), "an untyped value above int64 is a uint64");
    assertEquals(List.of("i", "u", "small", "$row_index", "big"), List.copyOf(row.keySet()));
  }

  @Test
  void aNegativeOrOversizedIntegerIsRefusedNamingTheColumn() {
    YtTransportException negative =
        assertThrows(
            YtTransportException.class,
            () -> decodeOne("{\"u\":-1}", Map.of("u", YtPrimitive.UINT32)));
    assertTrue(negative.getMessage().contains("u: -1 is not a"), negative.getMessage());
    assertThrows(
        YtTransportException.class,
        () -> decodeOne("{\"u\":-0}", Map.of("u", YtPrimitive.UINT64)),
        "-0 is not an unsigned number, as before");
    YtTransportException oversized =
        assertThrows(
            YtTransportException.class,
            () -> decodeOne("{\"i\":9223372036854775808}", Map.of("i", YtPrimitive.INT64)));
    assertTrue(oversized.getMessage().contains("does not fit"), oversized.getMessage());
  }

  @Test
  void stringsAsciiNonAsciiAndBinary() {
    // encode_utf8=true: "é" travels as its two UTF-8 bytes, each one code point.
    String e = "\\u00c3\\u00a9";
    Map<String, Object> row =
        decodeOne(
            "{\"a\":\"plain\",\"u\":\"caf"
                + e
                + "\",\"b\":\"\\u00ff\\u0000\",\"y\":\"caf"
                + e
                + "\",\"o\":null,\"opt\":\"x\"}",
            Map.of(
                "a", YtPrimitive.STRING,
                "u", YtPrimitive.UTF8,
                "b", YtPrimitive.STRING,
                "opt", new YtOptional(YtPrimitive.STRING),
                "o", new YtOptional(YtPrimitive.STRING)));
    assertEquals("plain", row.get("a"));
    assertEquals("café", row.get("u"));
    assertArrayEquals(new byte[] {(byte) 0xff, 0}, (byte[]) row.get("b"), "not UTF-8: bytes");
    assertEquals("café", row.get("y"), "untyped strings are decoded the same way");
    assertEquals(null, row.get("o"));
    assertEquals("x", row.get("opt"));
  }

  @Test
  void doublesKeepTheirSignAndStringifiedSpecials() {
    Map<String, Object> row =
        decodeOne(
            "{\"z\":-0.0,\"n\":\"nan\",\"i\":3}",
            Map.of("z", YtPrimitive.DOUBLE, "n", YtPrimitive.DOUBLE, "i", YtPrimitive.DOUBLE));
    assertEquals(-0.0, (Double) row.get("z"));
    assertEquals(1 / -0.0, 1 / (Double) row.get("z"));
    assertTrue(((Double) row.get("n")).isNaN());
    assertEquals(3.0, row.get("i"));
  }
}
