package io.ytstream.types.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> JsonReader.read(text), text)
        .getMessage();
  }

  @Test
  void readsFullJson() {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("z", Arrays.asList(1L, -2.5, 1e3, true, false, null, "s", List.of(), Map.of()));
    expected.put("a", null);
    expected.put("big", new BigInteger("18446744073709551615"));
    assertEquals(
        expected,
        JsonReader.read(
            " {\"z\" : [1, -2.5, 1E3, true, false, null, \"s\", [ ], { }],\n\"a\":null,"
                + "\"big\":18446744073709551615}\t"));
    assertEquals(
        List.of("z", "a", "big"),
        List.copyOf(((Map<?, ?>) JsonReader.read("{\"z\":1,\"a\":2,\"big\":3}")).keySet()));
    assertEquals(Long.MIN_VALUE, JsonReader.read("-9223372036854775808"));
    assertEquals(Long.MAX_VALUE, JsonReader.read("9223372036854775807"));
    assertEquals(new BigInteger("9223372036854775808"), JsonReader.read("9223372036854775808"));
    assertEquals(new BigInteger("-9223372036854775809"), JsonReader.read("-9223372036854775809"));
    assertEquals(0L, JsonReader.read("-0"));
    assertEquals(0.5, JsonReader.read("0.5"));
    assertEquals(-1e-2, JsonReader.read("-1e-2"));
    assertEquals(1e+2, JsonReader.read("1e+2"));
    assertEquals(
        "\"\\/\b\f\n\r\tA\u00e9\u20ac",
        JsonReader.read("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00E9\\u20aC\""));
    assertEquals("\u00e9", JsonReader.read("\"\u00e9\""));
    assertEquals(null, JsonReader.read("null"));
  }

  @Test
  void errorsNameTheOffsetAndThePath() {
    assertEquals("unexpected end of input at character 0 (at $)", error(""));
    assertEquals("unexpected text after the document at character 2 (at $)", error("1 2"));
    assertEquals("unexpected character 'x' at character 0 (at $)", error("x"));
    assertEquals("unexpected character 't' at character 0 (at $)", error("tru"));
    assertEquals("unexpected character 'n' at character 6 (at $.a)", error("{\"a\": nul}"));
    assertEquals("unexpected character 'f' at character 1 (at $[0])", error("[fals]"));
    assertEquals("expected a string key at character 1 (at $)", error("{a:1}"));
    assertEquals("expected ':' at character 5 (at $)", error("{\"a\" 1}"));
    assertEquals("expected ',' or '}' at character 7 (at $)", error("{\"a\":1 \"b\":2}"));
    assertEquals("expected ',' or ']' at character 3 (at $)", error("[1 2]"));
    assertEquals("unexpected character ']' at character 3 (at $[1])", error("[1,]"));
    assertEquals("expected a string key at character 7 (at $)", error("{\"a\":1,}"));
    assertEquals("duplicate key \"a\" at character 7 (at $)", error("{\"a\":1,\"a\":2}"));
    assertEquals(
        "unexpected character 'x' at character 22 (at $.columns[1].type)",
        error("{\"columns\":[1,{\"type\":x}]}"));
    assertEquals("leading zero in a number at character 0 (at $)", error("01"));
    assertEquals("leading zero in a number at character 1 (at $)", error("-01"));
    assertEquals("expected a digit at character 1 (at $)", error("-"));
    assertEquals("expected a digit at character 1 (at $)", error("-a"));
    assertEquals("expected a digit after the decimal point at character 2 (at $)", error("1."));
    assertEquals("expected a digit in the exponent at character 2 (at $)", error("1e"));
    assertEquals("expected a digit in the exponent at character 3 (at $)", error("1e+"));
    assertEquals("unexpected character '.' at character 0 (at $)", error(".5"));
    assertEquals("unexpected character '+' at character 0 (at $)", error("+1"));
    assertEquals("unterminated string at character 3 (at $)", error("\"ab"));
    assertEquals("control character in string at character 2 (at $)", error("\"a\nb\""));
    assertEquals("bad escape '\\x' at character 2 (at $)", error("\"\\x41\""));
    assertEquals("short \\u escape at character 2 (at $)", error("\"\\u12\""));
    assertEquals("bad \\u escape at character 2 (at $)", error("\"\\u12g4\""));
    assertEquals("unterminated escape at character 2 (at $)", error("\"\\"));
    assertEquals("unexpected end of input at character 1 (at $)", error("{"));
    assertEquals("unexpected end of input at character 1 (at $)", error("["));
    assertEquals("unexpected end of input at character 5 (at $.a)", error("{\"a\":"));
  }

  @Test
  void nestingIsLimited() {
    String ok = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
    JsonReader.read(ok);
    String tooDeep = "[".repeat(JsonReader.MAX_DEPTH + 1) + "]".repeat(JsonReader.MAX_DEPTH + 1);
    assertEquals(
        "nesting deeper than 512 levels at character 512 (at $" + "[0]".repeat(512) + ")",
        error(tooDeep));
  }

  @Test
  void writerRoundTrips() {
    Object value =
        JsonReader.read(
            "{\"a\":[1,-2.5,true,false,null,\"q\\\"\\\\\\n\\r\\t\\u0001\u00e9\"],\"b\":{},"
                + "\"c\":18446744073709551615}");
    String written = JsonWriter.write(value);
    assertEquals(
        "{\"a\":[1,-2.5,true,false,null,\"q\\\"\\\\\\n\\r\\t\\u0001\u00e9\"],\"b\":{},"
            + "\"c\":18446744073709551615}",
        written);
    assertEquals(value, JsonReader.read(written));
    assertEquals(
        "JSON has no representation for NaN",
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.write(Double.NaN))
            .getMessage());
    assertEquals(
        "cannot write a java.lang.Object as JSON",
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.write(new Object()))
            .getMessage());
  }

  @Test
  void indentedWriterPutsEntriesOnLinesAndScalarListsOnOne() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("k", "v\"");
    inner.put("e", Map.of());
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("n", 1L);
    value.put("flat", Arrays.asList(1L, "a", null, true));
    value.put("nested", List.of(inner, List.of()));
    value.put("empty", List.of());
    String written = JsonWriter.writeIndented(value);
    assertEquals(
        "{\n"
            + "  \"n\": 1,\n"
            + "  \"flat\": [1, \"a\", null, true],\n"
            + "  \"nested\": [\n"
            + "    {\n"
            + "      \"k\": \"v\\\"\",\n"
            + "      \"e\": {}\n"
            + "    },\n"
            + "    []\n"
            + "  ],\n"
            + "  \"empty\": []\n"
            + "}",
        written);
    assertEquals(value, JsonReader.read(written));
    assertEquals("7", JsonWriter.writeIndented(7L));
  }
}
