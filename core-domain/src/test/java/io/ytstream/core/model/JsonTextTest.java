package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {

  private static Object read(String text) {
    return new JsonText(text).readDocument();
  }

  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> read(text), text).getMessage();
  }

  @Test
  void readsTheSubset() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("x", -3L);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("a", 1L);
    expected.put("b", "s");
    expected.put("c", inner);
    expected.put("d", Map.of());
    assertEquals(
        expected, read(" \t\r\n{ \"a\" : 1 ,\n\"b\":\"s\", \"c\":{\"x\":-3}, \"d\":{ } } \n"));
    assertEquals(0L, read("0"));
    assertEquals(0L, read("-0"));
    assertEquals(Long.MAX_VALUE, read("9223372036854775807"));
    assertEquals(Long.MIN_VALUE, read("-9223372036854775808"));
    assertEquals("", read("\"\""));
  }

  @Test
  void keyOrderIsDocumentOrder() {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) read("{\"z\":1,\"a\":2,\"m\":3}");
    assertEquals(List.of("z", "a", "m"), List.copyOf(m.keySet()));
  }

  @Test
  void escapes() {
    assertEquals("\"\\/\b\f\n\r\tA\u00e9", read("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00E9\""));
    assertEquals("bad escape '\\x' at character 3", error("\"\\x\""));
    assertEquals("short \\u escape at character 3", error("\"\\u12\""));
    assertEquals("short \\u escape at character 3", error("\"\\u"));
    // Exactly four digits left: the escape is fine, the string is not closed.
    assertEquals("unterminated string at character 7", error("\"\\u0041"));
    assertEquals("bad \\u escape at character 3", error("\"\\u12g4\""));
    assertEquals("unterminated escape at character 2", error("\"\\"));
    assertEquals("unterminated string at character 4", error("\"abc"));
    assertEquals("control character in string at character 2", error("\"a\u0001\""));
    assertEquals("control character in string at character 2", error("\"a\n\""));
  }

  @Test
  void unicodeEscapeTakesExactlyFourHexDigits() {
    // Integer.parseInt(.., 16) would accept a sign: "\\u+041" and "\\u-001" are not JSON.
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u+041\""));
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u-001\""));
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u 041\""));
  }

  @Test
  void unicodeEscapeAcceptsExactlyTheHexDigits() {
    String hex = "0123456789abcdefABCDEF";
    for (char c = 0; c < 0x300; c++) {
      String doc = "\"\\u00" + c + "0\"";
      if (hex.indexOf(c) >= 0) {
        assertEquals(String.valueOf((char) Integer.parseInt("00" + c + "0", 16)), read(doc), doc);
      } else if (c >= 0x20 && c != '"') {
        assertEquals("bad \\u escape at character 3", error(doc), "char " + (int) c);
      }
    }
    // Fullwidth digits and letters are digits to Character.digit, not to JSON.
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u\uff10\uff10\uff10\uff10\""));
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u\uff41\uff41\uff41\uff41\""));
    assertEquals("\uffff\uABCD", read("\"\\uffff\\uABCD\""));
  }

  @Test
  void integersAreAsciiDigitsOnly() {
    // Character.isDigit and Long.parseLong accept non-ASCII digits; JSON does not.
    assertThrows(IllegalArgumentException.class, () -> read("1\u0663"));
    assertThrows(IllegalArgumentException.class, () -> read("{\"a\":4\u0665}"));
    assertThrows(IllegalArgumentException.class, () -> read("\u0663"));
  }

  @Test
  void numbers() {
    assertEquals("expected digits at character 1", error("-"));
    assertEquals("expected digits at character 1", error("-a"));
    assertEquals("expected an integer, got a fraction or exponent at character 1", error("1.5"));
    assertEquals("expected an integer, got a fraction or exponent at character 1", error("1e3"));
    assertEquals("expected an integer, got a fraction or exponent at character 1", error("1E3"));
    assertEquals("expected an integer, got a fraction or exponent at character 2", error("-1."));
    assertEquals("leading zero in a number at character 2", error("01"));
    assertEquals("leading zero in a number at character 3", error("-00"));
    assertEquals("integer out of range at character 19", error("9223372036854775808"));
    assertEquals("integer out of range at character 20", error("-9223372036854775809"));
  }

  @Test
  void structure() {
    assertEquals("unexpected end of input at character 0", error(""));
    assertEquals("unexpected end of input at character 2", error("  "));
    assertEquals("unexpected end of input at character 1", error("{"));
    assertEquals("unexpected end of input at character 3", error("{  "));
    assertEquals("expected a string key at character 1", error("{1:2}"));
    assertEquals("expected a string key at character 7", error("{\"a\":1,}"));
    assertEquals("expected ':' at character 5", error("{\"a\" 1}"));
    assertEquals("unexpected end of input at character 4", error("{\"a\""));
    assertEquals("unexpected end of input at character 5", error("{\"a\":"));
    assertEquals("unexpected end of input at character 6", error("{\"a\":1"));
    assertEquals("expected ',' or '}' at character 7", error("{\"a\":1 2}"));
    assertEquals("duplicate key \"a\" at character 12", error("{\"a\":1,\"a\":2}"));
    assertEquals("unexpected text after the document at character 3", error("{} x"));
    assertEquals("unexpected text after the document at character 2", error("{}}"));
    assertEquals("unexpected character '[' at character 0", error("[1]"));
    assertEquals("unexpected character 't' at character 5", error("{\"a\":true}"));
    assertEquals("unexpected character 'n' at character 0", error("null"));
  }

  @Test
  void appendStringEscapes() {
    StringBuilder out = new StringBuilder();
    JsonText.appendString(out, "a\"b\\c\nd\re\tf\u0001g\u001fh\u0020/\u00e9");
    assertEquals("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh /\u00e9\"", out.toString());
    for (char c = 0; c < 0x80; c++) {
      StringBuilder one = new StringBuilder();
      JsonText.appendString(one, "x" + c + "y");
      assertEquals("x" + c + "y", read(one.toString()), "char " + (int) c);
    }
  }
}
