package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class YPathTest {

  @Test
  void acceptsAbsolutePaths() {
    for (String value : List.of("//", "//home", "//home/q", "//home/q:x", "//a//b", "//a-b_c.d")) {
      YPath path = YPath.of(value);
      assertEquals(value, path.value());
      assertEquals(value, path.toString());
      assertEquals(path, new YPath(value));
    }
  }

  @Test
  void rejectsNull() {
    NullPointerException e = assertThrows(NullPointerException.class, () -> YPath.of(null));
    assertEquals("path", e.getMessage());
  }

  @Test
  void rejectsRelativePaths() {
    for (String value : List.of("", "/", "/home", "home", "h//ome", "\\\\home")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> YPath.of(value), value);
      assertEquals(
          "YPath '" + value + "' is not absolute: a Cypress path starts with '//', e.g. //home/q",
          e.getMessage());
    }
  }

  @Test
  void rejectsTrailingSlash() {
    for (String value : List.of("///", "//home/", "//home/q/")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> YPath.of(value), value);
      assertEquals("YPath '" + value + "' ends with '/': drop the trailing slash", e.getMessage());
    }
  }

  @Test
  void rejectsWhiteSpace() {
    for (String value : List.of("//ho me", "//a\tb", "//a\nb", "// ", "//a\u2003b")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> YPath.of(value), value);
      assertEquals("YPath '" + value + "' contains white space", e.getMessage());
    }
  }

  @Test
  void child() {
    assertEquals(YPath.of("//a"), YPath.of("//").child("a"));
    assertEquals(YPath.of("//ckpt/offsets"), YPath.of("//ckpt").child("offsets"));
    assertEquals(YPath.of("//x/y/z"), YPath.of("//x/y").child("z"));
    for (String bad : List.of("", "/", "a/b", "a/")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> YPath.of("//x").child(bad), bad);
      assertEquals("child name '" + bad + "' must be one non-empty segment", e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> YPath.of("//x").child("a b"));
  }

  @Test
  void orderIsByValue() {
    assertTrue(YPath.of("//a").compareTo(YPath.of("//b")) < 0);
    assertTrue(YPath.of("//b").compareTo(YPath.of("//a")) > 0);
    assertEquals(0, YPath.of("//a").compareTo(YPath.of("//a")));
  }
}
