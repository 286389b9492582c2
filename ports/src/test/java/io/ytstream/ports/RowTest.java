package io.ytstream.ports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RowTest {

  @Test
  void layoutFindsEveryColumnAlsoWhenNamesShareAHashCode() {
    // "Aa" and "BB" have the same String.hashCode, as do "AaAa", "AaBB", "BBAa" and "BBBB".
    List<String> names = new ArrayList<>(List.of("Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB"));
    for (int i = 0; i < 40; i++) {
      names.add("c" + i);
    }
    RowLayout layout = RowLayout.of(names);
    for (int i = 0; i < names.size(); i++) {
      assertEquals(i, layout.positionOf(names.get(i)), names.get(i));
    }
    assertEquals(-1, layout.positionOf("Ab"));
    assertEquals(-1, layout.positionOf("c40"));
    assertEquals(-1, layout.positionOf(null));
    assertThrows(IllegalArgumentException.class, () -> RowLayout.of("Aa", "BB", "Aa"));
    assertEquals(-1, RowLayout.of().positionOf("x"));
  }

  @Test
  void positionalAccessAgreesWithNamedAccess() {
    Row row = Row.of("id", 7L, "payload", "a", "flag", null);
    RowLayout layout = row.layout();
    assertEquals(List.of("id", "payload", "flag"), layout.names());
    for (int i = 0; i < layout.size(); i++) {
      assertEquals(row.get(layout.name(i)), row.valueAt(i));
      assertEquals(i, layout.positionOf(layout.name(i)));
    }
    assertEquals(-1, layout.positionOf("missing"));
    assertNull(row.get("missing"));
    assertTrue(row.has("flag"));
    assertFalse(row.has("missing"));
  }

  @Test
  void asMapKeepsColumnOrderAndIsReadOnly() {
    LinkedHashMap<String, Object> given = new LinkedHashMap<>();
    given.put("z", 1L);
    given.put("a", "x");
    given.put("m", null);
    Map<String, Object> map = Row.of(given).asMap();
    assertEquals(List.of("z", "a", "m"), new ArrayList<>(map.keySet()));
    assertEquals(given, map);
    assertEquals(map, given);
    assertEquals(given.hashCode(), map.hashCode());
    assertEquals(given.toString(), map.toString());
    assertTrue(map.containsKey("m"));
    assertThrows(UnsupportedOperationException.class, () -> map.put("b", 2L));
    assertThrows(UnsupportedOperationException.class, () -> map.remove("z"));
    assertThrows(UnsupportedOperationException.class, () -> map.keySet().remove("z"));
  }

  @Test
  void toStringIsTheMapsInColumnOrder() {
    assertEquals("{id=1, payload=a}", Row.of("id", 1L, "payload", "a").toString());
  }

  @Test
  void rowsBuiltAlikeShareALayout() {
    Row first = Row.of("id", 1L, "payload", "a");
    Row second = Row.of("id", 2L, "payload", "b");
    assertSame(first.layout(), second.layout());
  }

  @Test
  void equalityIgnoresLayoutObjectsAndColumnOrder() {
    Row byPairs = Row.of("id", 1L, "payload", new byte[] {1, 2});
    Row adopted = Row.adopting(RowLayout.of("id", "payload"), new Object[] {1L, new byte[] {1, 2}});
    Row reordered = Row.of("payload", new byte[] {1, 2}, "id", 1L);
    assertEquals(byPairs, adopted);
    assertEquals(adopted, byPairs);
    assertEquals(byPairs.hashCode(), adopted.hashCode());
    assertEquals(byPairs, reordered);
    assertEquals(byPairs.hashCode(), reordered.hashCode());
    assertNotEquals(byPairs, Row.of("id", 1L, "payload", new byte[] {1, 3}));
    assertNotEquals(byPairs, Row.of("id", 1L, "other", new byte[] {1, 2}));
    assertNotEquals(byPairs, Row.of("id", 1L));
  }

  @Test
  void aRepeatedNameKeepsItsFirstPositionAndLastValue() {
    Row row = Row.of("a", 1L, "b", 2L, "a", 3L);
    assertEquals(List.of("a", "b"), row.layout().names());
    assertEquals(3L, row.get("a"));
    assertEquals(3L, row.valueAt(0));
  }

  @Test
  void withAndWithoutCopyAndLeaveTheOriginal() {
    Row row = Row.of("id", 1L, "payload", "a");
    Row changed = row.with("id", 2L);
    Row added = row.with("extra", true);
    Row removed = row.without("id");
    assertEquals(Row.of("id", 1L, "payload", "a"), row);
    assertEquals(Row.of("id", 2L, "payload", "a"), changed);
    assertSame(row.layout(), changed.layout());
    assertEquals(List.of("id", "payload", "extra"), added.layout().names());
    assertEquals(true, added.valueAt(2));
    assertEquals(List.of("payload"), removed.layout().names());
    assertEquals("a", removed.valueAt(0));
    assertEquals(row, row.without("missing"));
    assertSame(removed.layout(), Row.of("id", 5L, "payload", "b").without("id").layout());
  }

  @Test
  void adoptingTakesTheArrayAsIsAndChecksItsLength() {
    RowLayout layout = RowLayout.of("id", "payload");
    Object[] values = {1L, "a"};
    Row row = Row.adopting(layout, values);
    assertSame(layout, row.layout());
    assertArrayEquals(values, new Object[] {row.valueAt(0), row.valueAt(1)});
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Row.adopting(layout, new Object[1]));
    assertTrue(e.getMessage().contains("takes 2 values, got 1"), e.getMessage());
  }

  @Test
  void aLayoutRejectsRepeatedAndNullNames() {
    assertThrows(IllegalArgumentException.class, () -> RowLayout.of("a", "a"));
    assertThrows(NullPointerException.class, () -> RowLayout.of("a", null));
    assertThrows(NullPointerException.class, () -> Row.of(null, 1L));
    assertThrows(IllegalArgumentException.class, () -> Row.of("a"));
  }

  @Test
  void layoutsCompareNamesInOrder() {
    assertTrue(RowLayout.of("a", "b").sameNamesAs(RowLayout.of(List.of("a", "b"))));
    assertFalse(RowLayout.of("a", "b").sameNamesAs(RowLayout.of("b", "a")));
  }
}
