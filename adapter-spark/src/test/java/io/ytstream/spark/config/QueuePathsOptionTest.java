package io.ytstream.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Option {@code paths}, the JSON array of strings Spark passes for {@code load("//q1", "//q2")},
 * read by the one JSON reader: escapes as JSON says, and malformed input named.
 */
class QueuePathsOptionTest {

  private static List<YPath> paths(String json) {
    return YtOptions.of(Map.of("paths", json)).queuePaths();
  }

  @Test
  void severalPathsInOrderWithoutRepeats() {
    assertEquals(
        List.of(YPath.of("//home/q1"), YPath.of("//home/q2")),
        paths("[\"//home/q1\", \"//home/q2\", \"//home/q1\"]"));
  }

  @Test
  void unicodeEscapesAreTheCharactersTheyName() {
    // \u00e9 is é, \u0022 a double quote, \\ one backslash, \/ a slash.
    assertEquals(
        List.of(YPath.of("//home/caf\u00e9"), YPath.of("//home/a\"b"), YPath.of("//home/x\\y/z")),
        paths("[\"//home/caf\\u00e9\", \"//home/a\\u0022b\", \"//home/x\\\\y\\/z\"]"));
  }

  @Test
  void aValueThatIsNoArrayIsOnePath() {
    assertEquals(List.of(YPath.of("//home/q")), paths("//home/q"));
  }

  @Test
  void malformedJsonNamesTheOptionTheValueAndTheFix() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> paths("[\"//home/q1\", \"//home/q2]"));
    assertTrue(
        e.getMessage().startsWith("option paths = '[\"//home/q1\", \"//home/q2]' is not a JSON"),
        e.getMessage());
    assertTrue(e.getMessage().contains("give the queue paths to load()"), e.getMessage());

    IllegalArgumentException badEscape =
        assertThrows(IllegalArgumentException.class, () -> paths("[\"//home/caf\\u00zz\"]"));
    assertTrue(badEscape.getMessage().startsWith("option paths = "), badEscape.getMessage());

    IllegalArgumentException notAString =
        assertThrows(IllegalArgumentException.class, () -> paths("[\"//home/q1\", 7]"));
    assertTrue(
        notAString.getMessage().contains("holds 7 at $[1], not a string"), notAString.getMessage());
  }
}
