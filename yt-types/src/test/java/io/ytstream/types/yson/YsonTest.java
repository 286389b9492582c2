package io.ytstream.types.yson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * YSON against the examples of yt/docs/en/_includes/user-guide/storage/yson.md (sections "Scalar
 * types", "Composite types", "Grammar", "Examples") and the YSON value examples of
 * yt/docs/en/_includes/user-guide/storage/data-types.md ("Representing compound types in formats"),
 * quoted as data.
 */
class YsonTest {

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  @SafeVarargs
  private static Map<String, Object> map(Object... keyValues) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      out.put((String) keyValues[i], keyValues[i + 1]);
    }
    return out;
  }

  private static void assertYson(Object expected, Object actual, String context) {
    assertTrue(
        Yson.equal(expected, actual),
        context + ": expected " + Yson.toText(expected) + " but was " + Yson.toText(actual));
  }

  private static void assertParses(Object expected, String text) {
    assertYson(expected, Yson.parse(text), text);
  }

  private static String error(String text) {
    return error(utf8(text));
  }

  private static String error(byte[] yson) {
    return assertThrows(IllegalArgumentException.class, () -> Yson.parse(yson)).getMessage();
  }

  @Test
  void scalarExamplesFromTheDocumentation() {
    // Strings: identifiers, text strings.
    assertParses("abc123", "abc123");
    assertParses("_", "_");
    assertParses("a-b", "a-b");
    assertParses("abc123", "\"abc123\"");
    assertParses("", "\"\"");
    assertParses(
        bytes(
            concat(
                utf8("quotation-mark: \", backslash: \\, tab: \t, unicode: "),
                new byte[] {(byte) 0xEA})),
        "\"quotation-mark: \\\", backslash: \\\\, tab: \\t, unicode: \\xEA\"");
    // int64
    assertParses(0L, "0");
    assertParses(123L, "123");
    assertParses(-123L, "-123");
    assertParses(123L, "+123");
    // uint64
    assertParses(new YsonUint64(123), "123u");
    // The doc lists `10000000000000` under uint64; without the u suffix it is an int64.
    assertParses(10000000000000L, "10000000000000");
    // double
    assertParses(0.0, "0.0");
    assertParses(-1.0, "-1.0");
    assertParses(1e-9, "1e-9");
    assertParses(1.5e9, "1.5E+9");
    assertParses(320.0, "32E1");
    // boolean, entity
    assertParses(false, "%false");
    assertParses(true, "%true");
    assertParses(null, "#");
  }

  private static int[] concat(byte[] a, byte[] b) {
    int[] out = new int[a.length + b.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i];
    }
    for (int i = 0; i < b.length; i++) {
      out[a.length + i] = b[i];
    }
    return out;
  }

  @Test
  void compositeExamplesFromTheDocumentation() {
    assertParses(List.of(1L, "hello", map("a", 1L, "b", 2L)), "[1; \"hello\"; {a=1; b=2}]");
    assertParses(
        map("a", "hello", "38 parrots", List.of(38L)), "{a = \"hello\"; \"38 parrots\" = [38]}");
    // The doc writes this example as `b = [7,7,8]`; its own grammar separates list items with
    // ';', which is what this reader follows (see commasAreNotSeparators).
    assertParses(
        new YsonAttributed(map("a", 10L, "b", List.of(7L, 7L, 8L)), "some-string"),
        "<a = 10; b = [7;7;8]>\"some-string\"");
    assertParses(new YsonAttributed(map("44", 44L), 44L), "<\"44\" = 44>44");
    assertParses(
        new YsonAttributed(map("id", "aaad6921-b5704588-17990259-7b88bad3"), null),
        "<id=\"aaad6921-b5704588-17990259-7b88bad3\">#");
    // Grammar: the trailing ';' may be omitted.
    assertParses(new YsonAttributed(map("a", "b"), "c"), "<a=b;>c");
    assertParses(new YsonAttributed(map("a", "b"), "c"), "<a=b>c");
    assertParses(map("a", "b"), "{a=b;}");
    assertParses(map("a", "b"), "{a=b}");
    assertYson(List.of(1L, 2L, 3L), Yson.parseListFragment(utf8("1;2;3;")), "1;2;3;");
    assertYson(List.of(1L, 2L, 3L), Yson.parseListFragment(utf8("1;2;3")), "1;2;3");
    // Examples.
    assertParses(
        map("performance", 1L, "precision", 0.78, "recall", 0.21),
        "{ performance = 1 ; precision = 0.78 ; recall = 0.21 }");
    assertParses(
        map("cv-precision", List.of(0.85, 0.24, 0.71, 0.70)),
        "{ cv-precision = [ 0.85 ; 0.24 ; 0.71 ; 0.70 ] }");
    assertParses(List.of(1L, 2L, 3L, 4L, 5L), "[ 1; 2; 3; 4; 5 ]");
    assertParses("foobar", "foobar");
    assertParses("hello world", "\"hello world\"");
    assertParses(42L, "42");
    assertParses(3.1415926, "3.1415926");
    assertYson(
        List.of(
            map("key", "a", "value", 0L),
            map("key", "b", "value", 1L),
            map("key", "c", "value", 2L, "unknown_value", List.of())),
        Yson.parseListFragment(
            utf8(
                "{ key = a; value = 0 };\n"
                    + "{ key = b; value = 1 };\n"
                    + "{ key = c; value = 2; unknown_value = [] }")),
        "ListFragment");
    YsonAttributed table = new YsonAttributed(map("type", "table"), null);
    assertParses(
        map(
            "home",
            map("sandello", map("mytable", table, "anothertable", table), "monster", map())),
        "{ home = { sandello = { mytable = <type = table> # ; anothertable = <type = table> # }"
            + " ; monster = { } } }");
  }

  @Test
  void valueExamplesOfDataTypes() {
    // data-types.md, "Representing compound types in formats" / YSON.
    assertParses(Arrays.asList((Object) null), "[ # ]");
    assertParses(List.of(-42L), "[ -42 ]");
    assertParses(List.of(42L, -1L), "[42; -1;]");
    assertParses(map("Foo", 42L, "Bar", null), "{Foo=42;Bar=#;}");
    assertParses(map("Foo", -5L, "Bar", "minus five"), "{Foo=-5;Bar=\"minus five\";}");
    assertParses(Arrays.asList(42L, null), "[42; #;]");
    assertParses(List.of("Bar", "foo bar"), "[Bar; \"foo bar\";]");
    assertParses(List.of(List.of(1L, "one"), List.of(4L, "four")), "[[1;\"one\"];[4;\"four\"]]");
    assertParses(map("one", 1L, "four", 4L), "{one=1; four=4}");
  }

  @Test
  void binaryMarkersAsDocumented() {
    // \x01 + zigzag varint length + bytes
    assertArrayEquals(bytes(0x01, 0x06, 'a', 'b', 'c'), Yson.toBinary("abc"));
    assertArrayEquals(bytes(0x01, 0x00), Yson.toBinary(new byte[0]));
    // \x02 + zigzag varint
    assertArrayEquals(bytes(0x02, 0x00), Yson.toBinary(0L));
    assertArrayEquals(bytes(0x02, 0x01), Yson.toBinary(-1L));
    assertArrayEquals(bytes(0x02, 0x02), Yson.toBinary(1L));
    assertArrayEquals(bytes(0x02, 0x80, 0x01), Yson.toBinary(64L));
    assertArrayEquals(
        bytes(0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01),
        Yson.toBinary(Long.MIN_VALUE));
    assertArrayEquals(
        bytes(0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01),
        Yson.toBinary(Long.MAX_VALUE));
    // \x03 + 8 bytes little endian
    assertArrayEquals(bytes(0x03, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F), Yson.toBinary(1.0));
    assertArrayEquals(bytes(0x03, 0, 0, 0, 0, 0, 0, 0, 0x80), Yson.toBinary(-0.0));
    // \x04 false, \x05 true
    assertArrayEquals(bytes(0x04), Yson.toBinary(false));
    assertArrayEquals(bytes(0x05), Yson.toBinary(true));
    // \x06 + varint
    assertArrayEquals(bytes(0x06, 0xAC, 0x02), Yson.toBinary(new YsonUint64(300)));
    assertArrayEquals(
        bytes(0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01),
        Yson.toBinary(YsonUint64.MAX));
    // Composites keep the text punctuation.
    assertArrayEquals(
        bytes(
            '<', 0x01, 0x02, 'a', '=', 0x05, '>', '{', 0x01, 0x02, 'k', '=', '[', 0x02, 0x02, ';',
            '#', ']', '}'),
        Yson.toBinary(new YsonAttributed(map("a", true), map("k", Arrays.asList(1L, null)))));
    // And they read back.
    assertYson("abc", Yson.parse(bytes(0x01, 0x06, 'a', 'b', 'c')), "binary string");
    assertYson(-1L, Yson.parse(bytes(0x02, 0x01)), "binary int64");
    assertYson(1.0, Yson.parse(bytes(0x03, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F)), "binary double");
    assertYson(false, Yson.parse(bytes(0x04)), "binary false");
    assertYson(true, Yson.parse(bytes(0x05)), "binary true");
    assertYson(new YsonUint64(300), Yson.parse(bytes(0x06, 0xAC, 0x02)), "binary uint64");
    // A non-canonical (over-long) varint is still the same number, as in protobuf.
    assertYson(0L, Yson.parse(bytes(0x02, 0x80, 0x00)), "over-long varint");
  }

  @Test
  void textAndBinaryMixAndTheFirstByteDecides() {
    byte[] mixed =
        bytes(
            '[', 0x02, 0x02, ';', ' ', '2', 'u', ';', 0x01, 0x02, 'x', ';', '%', 't', 'r', 'u', 'e',
            ']');
    assertYson(Arrays.asList(1L, new YsonUint64(2), "x", true), Yson.parse(mixed), "mixed");
    assertYson(
        List.of(map("a", 1L), map("a", 2L)),
        Yson.parseListFragment(Yson.toBinaryListFragment(List.of(map("a", 1L), map("a", 2L)))),
        "binary fragment");
    assertEquals(
        "{\"a\"=1};\n{\"a\"=2};\n", Yson.toTextListFragment(List.of(map("a", 1L), map("a", 2L))));
    assertEquals(List.of(), Yson.parseListFragment(new byte[0]));
    assertEquals(List.of(), Yson.parseListFragment(utf8("  \n")));
  }

  @Test
  void textWriterForm() {
    assertEquals("#", Yson.toText(null));
    assertEquals("%true", Yson.toText(true));
    assertEquals("%false", Yson.toText(false));
    assertEquals("-9223372036854775808", Yson.toText(Long.MIN_VALUE));
    assertEquals("18446744073709551615u", Yson.toText(YsonUint64.MAX));
    assertEquals("%nan", Yson.toText(Double.NaN));
    assertEquals("%inf", Yson.toText(Double.POSITIVE_INFINITY));
    assertEquals("%-inf", Yson.toText(Double.NEGATIVE_INFINITY));
    assertEquals("-0.0", Yson.toText(-0.0));
    assertEquals("1.0E10", Yson.toText(1e10));
    assertEquals("[]", Yson.toText(List.of()));
    assertEquals("{}", Yson.toText(Map.of()));
    assertEquals("<>#", Yson.toText(new YsonAttributed(Map.of(), null)));
    assertEquals(
        "<\"a\"=1;\"b\"=[#;\"x\"]>{\"k\"=%true;\"l\"=[]}",
        Yson.toText(
            new YsonAttributed(
                map("a", 1L, "b", Arrays.asList(null, "x")), map("k", true, "l", List.of()))));
    byte[] everyByte = new byte[256];
    for (int i = 0; i < 256; i++) {
      everyByte[i] = (byte) i;
    }
    String text = Yson.toText(everyByte);
    assertTrue(
        text.startsWith("\"\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r"));
    assertTrue(text.contains(" !\\\"#$%&'()*+,-./0123456789:;<=>?@ABC"));
    assertTrue(text.contains("XYZ[\\\\]^_`abc"));
    assertTrue(text.contains("xyz{|}~\\x7f\\x80\\x81\\x82"), text);
    assertTrue(text.endsWith("\\xfe\\xff\""));
    assertArrayEquals(everyByte, (byte[]) Yson.parse(text));
    assertArrayEquals(everyByte, (byte[]) Yson.parse(Yson.toBinary(everyByte)));
  }

  @Test
  void everyEscapeReads() {
    assertParses(
        bytes('"', '\\', '\'', '?', 7, 8, 12, 10, 13, 9, 11),
        "\"\\\"\\\\\\'\\?\\a\\b\\f\\n\\r\\t\\v\"");
    assertParses(bytes(0x0A, 0xFF, 0x0A, 'G'), "\"\\xa\\xFF\\x0aG\"");
    assertParses(bytes(0, 8, 0xFF, 8, '8', 0x53, '7'), "\"\\0\\10\\377\\108\\1237\"");
    // Raw bytes inside quotes are taken as they are, including newlines and non-UTF-8.
    assertYson(
        bytes(0xC3, 0xA9, '\n', 0xFF),
        Yson.parse(bytes('"', 0xC3, 0xA9, '\n', 0xFF, '"')),
        "raw bytes");
  }

  @Test
  void edgeValuesRoundTrip() {
    List<Object> edges =
        Arrays.asList(
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            0L,
            -1L,
            YsonUint64.MAX,
            new YsonUint64(0),
            new YsonUint64(Long.MIN_VALUE),
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            -0.0,
            0.0,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            -Double.MIN_NORMAL,
            0.1,
            true,
            false,
            null,
            new byte[0],
            bytes(0xFF, 0xFE, 0x00, 0xC0),
            "\u00e9t\u00e9 \ud83d\ude00",
            List.of(),
            Map.of(),
            Arrays.asList(null, Arrays.asList((Object) null), map("n", null)),
            map("k", Arrays.asList(List.of(), map())),
            new YsonAttributed(map("a", null), Arrays.asList((Object) null)),
            new YsonAttributed(map(), map()));
    for (Object value : edges) {
      assertYson(value, Yson.parse(Yson.toBinary(value)), "binary " + Yson.toText(value));
      assertYson(value, Yson.parse(Yson.toText(value)), "text " + Yson.toText(value));
    }
    assertEquals(
        Double.doubleToRawLongBits(-0.0),
        Double.doubleToRawLongBits((Double) Yson.parse(Yson.toText(-0.0))));
    assertFalse(Yson.equal(0.0, -0.0));
    assertTrue(Yson.equal(Double.NaN, Double.NaN));
    assertTrue(Double.isNaN((Double) Yson.parse("%nan")));
    assertEquals(Double.POSITIVE_INFINITY, Yson.parse("%+inf"));
    assertEquals(Double.POSITIVE_INFINITY, Yson.parse("%inf"));
    assertEquals(Double.NEGATIVE_INFINITY, Yson.parse("%-inf"));
    assertEquals(YsonUint64.MAX, Yson.parse("18446744073709551615u"));
    assertEquals(Long.MIN_VALUE, Yson.parse("-9223372036854775808"));
    assertEquals(1.0, Yson.parse("1."));
    assertEquals(100.0, Yson.parse("1e2"));
    // A NaN with a payload keeps its bits in binary.
    long payload = 0x7FF0000000000123L;
    assertEquals(
        payload,
        Double.doubleToRawLongBits(
            (Double) Yson.parse(Yson.toBinary(Double.longBitsToDouble(payload)))));
  }

  @Test
  void randomNestedValuesRoundTrip() {
    long seed = 0x5EED_2024L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 500; i++) {
      Object value = randomTree(random, 4);
      String context = "seed " + seed + " case " + i;
      byte[] binary = Yson.toBinary(value);
      String text = Yson.toText(value);
      assertYson(value, Yson.parse(binary), context + " binary");
      assertYson(value, Yson.parse(text), context + " text");
      assertArrayEquals(binary, Yson.toBinary(Yson.parse(text)), context + " text to binary");
      assertEquals(text, Yson.toText(Yson.parse(binary)), context + " binary to text");
    }
  }

  private static Object randomTree(SplittableRandom random, int depth) {
    Object value = randomObject(random, depth);
    if (random.nextInt(6) == 0) {
      return new YsonAttributed(randomMap(random, depth), value);
    }
    return value;
  }

  private static Object randomObject(SplittableRandom random, int depth) {
    int kind = random.nextInt(depth == 0 ? 7 : 9);
    switch (kind) {
      case 0:
        return null;
      case 1:
        switch (random.nextInt(4)) {
          case 0:
            return Long.MIN_VALUE;
          case 1:
            return Long.MAX_VALUE;
          case 2:
            return (long) random.nextInt(-200, 200);
          default:
            return random.nextLong();
        }
      case 2:
        return new YsonUint64(random.nextInt(3) == 0 ? -1L : random.nextLong());
      case 3:
        switch (random.nextInt(6)) {
          case 0:
            return Double.NaN;
          case 1:
            return random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
          case 2:
            return random.nextBoolean() ? -0.0 : 0.0;
          case 3:
            return random.nextDouble() * 1000;
          default:
            double d = Double.longBitsToDouble(random.nextLong());
            return Double.isNaN(d) ? 1.5 : d;
        }
      case 4:
        return random.nextBoolean();
      case 5:
      case 6:
        byte[] bytes = new byte[random.nextInt(12)];
        random.nextBytes(bytes);
        return bytes;
      case 7:
        List<Object> list = new ArrayList<>();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
          list.add(randomTree(random, depth - 1));
        }
        return list;
      default:
        return randomMap(random, depth);
    }
  }

  private static Map<String, Object> randomMap(SplittableRandom random, int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    int n = random.nextInt(depth == 0 ? 2 : 5);
    String[] keys = {
      "a", "b-c", "d.e", "_", "with space", "\u00e9", "\"q\"", "\\", "\n", "\ud83d\ude00"
    };
    for (int i = 0; i < n; i++) {
      map.put(
          keys[random.nextInt(keys.length)] + i, depth == 0 ? null : randomTree(random, depth - 1));
    }
    return map;
  }

  @Test
  void malformedText() {
    assertEquals("YSON: empty input, expected a value at byte 0 (in the root)", error(""));
    assertEquals("YSON: empty input, expected a value at byte 2 (in the root)", error(" \n"));
    assertEquals(
        "YSON: unexpected '2' (0x32) after the value at byte 2 (in the root)", error("1 2"));
    assertEquals(
        "YSON: unexpected ';' (0x3b) after the value at byte 1 (in the root)", error("1;2"));
    assertEquals(
        "YSON: unexpected ']' (0x5d), expected a value at byte 0 (in the root)", error("]"));
    assertEquals(
        "YSON: unexpected byte 0x07, expected a value at byte 0 (in the root)", error(bytes(0x07)));
    assertEquals(
        "YSON: unexpected byte 0xff, expected a value at byte 0 (in the root)", error(bytes(0xFF)));
    assertEquals("YSON: unexpected end of input at byte 1 (in the root)", error("["));
    assertEquals("YSON: unexpected end of input at byte 3 (in the root)", error("[1;"));
    assertEquals(
        "YSON: expected ';' or ']' in a list, got '2' (0x32) at byte 3 (in the root)",
        error("[1 2]"));
    assertEquals(
        "YSON: unexpected ';' (0x3b), expected a value at byte 3 (in /1)", error("[1;;2]"));
    assertEquals(
        "YSON: expected ';' or '}' in a map, got 'b' (0x62) at byte 5 (in the root)",
        error("{a=1 b=2}"));
    assertEquals(
        "YSON: expected '=' after key \"a\", got '1' (0x31) at byte 3 (in the root)",
        error("{a 1}"));
    assertEquals(
        "YSON: expected a string key, got '1' (0x31) at byte 1 (in the root)", error("{1=2}"));
    assertEquals("YSON: empty key in a map at byte 1 (in the root)", error("{\"\"=2}"));
    assertEquals("YSON: duplicate key \"a\" in a map at byte 5 (in the root)", error("{a=1;a=2}"));
    assertEquals(
        "YSON: duplicate key \"a\" in attributes at byte 5 (in the root)", error("<a=1;a=2>#"));
    assertEquals(
        "YSON: expected ';' or '>' in attributes, got '}' (0x7d) at byte 4 (in the root)",
        error("<a=1}#"));
    assertEquals(
        "YSON: a value has at most one set of attributes at byte 5 (in the root)",
        error("<a=1><b=2>#"));
    assertEquals("YSON: unexpected end of input at byte 5 (in the root)", error("<a=1>"));
    assertEquals(
        "YSON: unexpected ']' (0x5d), expected a value at byte 13 (in /x/l)",
        error("{x={k=[1;];l=]}}"));
  }

  @Test
  void commasAreNotSeparators() {
    assertEquals(
        "YSON: expected ';' or ']' in a list, got ',' (0x2c) at byte 2 (in the root)",
        error("[7,7,8]"));
    assertEquals(
        "YSON: expected ';' or '}' in a map, got ',' (0x2c) at byte 4 (in the root)",
        error("{a=b,c=d}"));
  }

  @Test
  void malformedScalars() {
    assertEquals(
        "YSON: int64 literal out of range: 9223372036854775808 (a uint64 needs the u suffix)"
            + " at byte 0 (in the root)",
        error("9223372036854775808"));
    assertEquals(
        "YSON: uint64 literal out of range [0, 2^64-1]: 18446744073709551616u at byte 0 (in the"
            + " root)",
        error("18446744073709551616u"));
    assertEquals(
        "YSON: a uint64 literal cannot be negative: -1u at byte 0 (in the root)", error("-1u"));
    assertEquals(
        "YSON: a number needs a digit after its sign at byte 0 (in the root)", error("-inf"));
    assertEquals("YSON: a number needs a digit after its sign at byte 0 (in the root)", error("+"));
    assertEquals("YSON: a number's exponent needs a digit at byte 2 (in the root)", error("1e"));
    assertEquals("YSON: unexpected 'u' (0x75) in a number at byte 3 (in the root)", error("1.5u"));
    assertEquals("YSON: unexpected 'a' (0x61) in a number at byte 2 (in the root)", error("12abc"));
    assertEquals("YSON: unexpected '.' (0x2e) in a number at byte 3 (in the root)", error("1.5.3"));
    assertEquals("YSON: unexpected '-' (0x2d) in a number at byte 1 (in the root)", error("1-2"));
    assertEquals("YSON: unexpected '+' (0x2b) in a number at byte 1 (in the root)", error("1+2"));
    assertEquals(
        "YSON: unknown literal \"%tru\", expected %true, %false, %nan, %inf, %+inf or %-inf at"
            + " byte 0 (in the root)",
        error("%tru"));
    assertEquals(
        "YSON: unknown literal \"%True\", expected %true, %false, %nan, %inf, %+inf or %-inf at"
            + " byte 0 (in the root)",
        error("%True"));
    assertEquals(
        "YSON: unknown literal \"%\", expected %true, %false, %nan, %inf, %+inf or %-inf at byte"
            + " 0 (in the root)",
        error("%"));
    assertEquals(
        "YSON: unknown literal \"%truex\", expected %true, %false, %nan, %inf, %+inf or %-inf at"
            + " byte 0 (in the root)",
        error("%truex"));
    assertEquals("YSON: unterminated quoted string at byte 0 (in the root)", error("\"abc"));
    assertEquals("YSON: unterminated quoted string at byte 0 (in the root)", error("\"abc\\"));
    assertEquals(
        "YSON: unknown escape '\\q' in a quoted string at byte 1 (in the root)", error("\"\\q\""));
    assertEquals("YSON: escape \\x needs a hex digit at byte 1 (in the root)", error("\"\\xg\""));
    assertEquals("YSON: octal escape above \\377 at byte 1 (in the root)", error("\"\\400\""));
  }

  @Test
  void malformedBinary() {
    assertEquals(
        "YSON: truncated varint of a binary int64 at byte 1 (in the root)", error(bytes(0x02)));
    assertEquals(
        "YSON: truncated varint of a binary uint64 at byte 1 (in the root)",
        error(bytes(0x06, 0x80)));
    assertEquals(
        "YSON: varint of a binary int64 overflows 64 bits at byte 1 (in the root)",
        error(bytes(0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02)));
    assertEquals(
        "YSON: varint of a binary uint64 overflows 64 bits at byte 1 (in the root)",
        error(bytes(0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00)));
    assertEquals(
        "YSON: truncated binary double: 3 of 8 bytes at byte 1 (in the root)",
        error(bytes(0x03, 1, 2, 3)));
    assertEquals(
        "YSON: negative binary string length -1 at byte 2 (in the root)",
        error(bytes(0x01, 0x01, 'a')));
    assertEquals(
        "YSON: binary string length 3 exceeds the 2 bytes left at byte 2 (in the root)",
        error(bytes(0x01, 0x06, 'a', 'b')));
    assertEquals(
        "YSON: truncated varint of a binary string length at byte 1 (in the root)",
        error(bytes(0x01)));
    assertEquals(
        "YSON: a map or attribute key is not valid UTF-8, which this reader does not support at"
            + " byte 4 (in the root)",
        error(bytes('{', 0x01, 0x02, 0xFF, '=', '#', '}')));
    assertEquals(
        "YSON: unexpected byte 0x05 after the value at byte 1 (in the root)",
        error(bytes(0x05, 0x05)));
    assertEquals(
        "YSON: expected ';' or the end, got byte 0x05 at byte 1 (in the root)",
        assertThrows(
                IllegalArgumentException.class, () -> Yson.parseListFragment(bytes(0x05, 0x05)))
            .getMessage());
  }

  @Test
  void nestingIsLimited() {
    int limit = YsonReader.MAX_DEPTH;
    Yson.parse("[".repeat(limit) + "]".repeat(limit));
    String message = error("[".repeat(limit + 1) + "]".repeat(limit + 1));
    assertTrue(
        message.startsWith("YSON: nesting deeper than 512 levels at byte 512 (in /0/0/0"), message);
    Yson.parse("{a=".repeat(limit) + "#" + "}".repeat(limit));
    message = error("<a=".repeat(limit + 1) + "#" + ">#".repeat(limit + 1));
    assertTrue(message.startsWith("YSON: nesting deeper than 512 levels"), message);
  }

  @Test
  void writerRejectsValuesOutsideTheModel() {
    assertEquals(
        "YSON: cannot write a java.lang.Integer as YSON; use null, Boolean, Long, YsonUint64,"
            + " Double, byte[], String, List, Map or YsonAttributed (at /a/1)",
        assertThrows(
                IllegalArgumentException.class, () -> Yson.toText(map("a", Arrays.asList(1L, 2))))
            .getMessage());
    Map<Object, Object> badKey = new LinkedHashMap<>();
    badKey.put(1, 2L);
    assertEquals(
        "YSON: a map or attribute key must be a String, got java.lang.Integer (at /0)",
        assertThrows(IllegalArgumentException.class, () -> Yson.toBinary(List.of(badKey)))
            .getMessage());
    assertEquals(
        "a YSON value has at most one set of attributes",
        assertThrows(
                IllegalArgumentException.class,
                () -> new YsonAttributed(map(), new YsonAttributed(map(), null)))
            .getMessage());
  }

  @Test
  void equalityOfTheModel() {
    assertTrue(Yson.equal("abc", utf8("abc")));
    assertTrue(Yson.equal(null, null));
    assertFalse(Yson.equal(null, 0L));
    assertFalse(Yson.equal(0L, null));
    assertFalse(Yson.equal(1L, new YsonUint64(1)));
    assertFalse(Yson.equal(1L, 1.0));
    assertFalse(Yson.equal(List.of(1L), List.of(1L, 2L)));
    assertFalse(Yson.equal(List.of(1L), List.of(2L)));
    assertFalse(Yson.equal(map("a", 1L, "b", 2L), map("b", 2L, "a", 1L)));
    assertFalse(Yson.equal(map("a", 1L), map("a", 1L, "b", 2L)));
    assertFalse(Yson.equal(map("a", 1L), map("a", 2L)));
    assertFalse(Yson.equal(map("a", 1L), List.of(1L)));
    assertFalse(
        Yson.equal(new YsonAttributed(map("a", 1L), null), new YsonAttributed(map("a", 2L), null)));
    assertFalse(
        Yson.equal(new YsonAttributed(map("a", 1L), 1L), new YsonAttributed(map("a", 1L), 2L)));
    assertFalse(Yson.equal(new YsonAttributed(map(), 1L), 1L));
  }

  @Test
  void uint64Value() {
    assertEquals("18446744073709551615", YsonUint64.MAX.toString());
    assertEquals(new java.math.BigInteger("18446744073709551615"), YsonUint64.MAX.toBigInteger());
    assertEquals(java.math.BigInteger.valueOf(5), new YsonUint64(5).toBigInteger());
    assertEquals(YsonUint64.MAX, YsonUint64.parse("18446744073709551615"));
    assertTrue(YsonUint64.MAX.compareTo(new YsonUint64(1)) > 0);
    assertEquals(
        "\"-1\" is not a uint64 in [0, 2^64-1]",
        assertThrows(IllegalArgumentException.class, () -> YsonUint64.parse("-1")).getMessage());
  }

  @Test
  void manyRowsAndALongStringRoundTripThroughTheGrowingBuffer() {
    List<Object> rows = new ArrayList<>();
    byte[] longText = new byte[5_000];
    Arrays.fill(longText, (byte) 'x');
    for (long i = 0; i < 2_000; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", i);
      row.put("payload", i == 0 ? longText : ("p" + i).getBytes(StandardCharsets.UTF_8));
      rows.add(row);
    }

    List<Object> back = Yson.parseListFragment(Yson.toBinaryListFragment(rows));

    assertEquals(rows.size(), back.size());
    for (int i = 0; i < rows.size(); i++) {
      Map<?, ?> want = (Map<?, ?>) rows.get(i);
      Map<?, ?> got = (Map<?, ?>) back.get(i);
      assertEquals(want.get("id"), got.get("id"));
      Object text = got.get("payload");
      byte[] bytes =
          text instanceof byte[] b ? b : ((String) text).getBytes(StandardCharsets.UTF_8);
      assertArrayEquals((byte[]) want.get("payload"), bytes, "row " + i);
    }
  }
}
