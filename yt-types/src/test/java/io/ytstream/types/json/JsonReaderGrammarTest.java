package io.ytstream.types.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The corners of the grammar where a lenient JDK helper would accept what JSON does not: escapes,
 * hex digits, non-ASCII digits, and the writer's escaping of every ASCII character.
 */
class JsonReaderGrammarTest {

  private static Object read(String text) {
    return JsonReader.read(text);
  }

  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> read(text), text).getMessage();
  }

  @Test
  void readsObjectsInDocumentOrderWithWhiteSpaceAnywhere() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("x", -3L);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("a", 1L);
    expected.put("b", "s");
    expected.put("c", inner);
    expected.put("d", Map.of());
    assertEquals(
        expected, read(" \t\r\n{ \"a\" : 1 ,\n\"b\":\"s\", \"c\":{\"x\":-3}, \"d\":{ } } \n"));
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) read("{\"z\":1,\"a\":2,\"m\":3}");
    assertEquals(List.of("z", "a", "m"), List.copyOf(m.keySet()));
    assertEquals("", read("\"\""));
  }

  @Test
  void escapes() {
    assertEquals("\"\\/\b\f\n\r\tA\u00e9", read("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00E9\""));
    assertEquals("short \\u escape at character 2 (at $)", error("\"\\u"));
    // Exactly four digits left: the escape is fine, the string is not closed.
    assertEquals("unterminated string at character 7 (at $)", error("\"\\u0041"));
    assertEquals("unterminated string at character 4 (at $)", error("\"abc"));
    assertEquals("control character in string at character 2 (at $)", error("\"a\u0001\""));
    assertEquals(
        "control character in string at character 8 (at $[0].k)", error("[{\"k\":\"a\n\"}]"));
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
        assertEquals("bad \\u escape at character 2 (at $)", error(doc), "char " + (int) c);
      }
    }
    // Fullwidth digits and letters are digits to Character.digit, not to JSON.
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u\uff10\uff10\uff10\uff10\""));
    assertThrows(IllegalArgumentException.class, () -> read("\"\\u\uff41\uff41\uff41\uff41\""));
    assertEquals("\uffff\uABCD", read("\"\\uffff\\uABCD\""));
  }

  @Test
  void numbersAreAsciiDigitsOnly() {
    // Character.isDigit and Long.parseLong accept non-ASCII digits; JSON does not.
    assertEquals("unexpected text after the document at character 1 (at $)", error("1\u0663"));
    assertEquals("expected ',' or '}' at character 6 (at $)", error("{\"a\":4\u0665}"));
    assertEquals("unexpected character '\u0663' at character 0 (at $)", error("\u0663"));
    assertEquals("leading zero in a number at character 1 (at $)", error("-00"));
  }

  @Test
  void appendStringEscapesWhatJsonRequiresAndReadsBack() {
    StringBuilder out = new StringBuilder();
    JsonWriter.appendString(out, "a\"b\\c\nd\re\tf\u0001g\u001fh\u0020/\u00e9");
    assertEquals("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh /\u00e9\"", out.toString());
    for (char c = 0; c < 0x80; c++) {
      StringBuilder one = new StringBuilder();
      JsonWriter.appendString(one, "x" + c + "y");
      assertEquals("x" + c + "y", read(one.toString()), "char " + (int) c);
    }
  }
}
