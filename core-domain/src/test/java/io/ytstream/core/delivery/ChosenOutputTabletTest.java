package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A row's own tablet: named by a column, or its key hashed by a hash defined byte for byte. */
class ChosenOutputTabletTest {

  private static final List<String> KEY = List.of("user", "shard");

  @Test
  void aNamedTabletIsTakenAsGiven() {
    assertEquals(0, ChosenOutputTablet.named("$tablet_index", 0L, 4));
    assertEquals(3, ChosenOutputTablet.named("$tablet_index", 3L, 4));
    assertEquals(2, ChosenOutputTablet.named("$tablet_index", 2, 4), "any integer width");
  }

  @Test
  void aTabletOutOfRangeOrNullIsRefusedNamingColumnValueAndCount() {
    for (Object bad : Arrays.asList(4L, -1L, null, "1", 1.0, Long.MAX_VALUE)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> ChosenOutputTablet.named("$tablet_index", bad, 4),
              String.valueOf(bad));
      assertTrue(e.getMessage().contains("$tablet_index"), e.getMessage());
      assertTrue(
          e.getMessage().contains(bad instanceof String s ? "'" + s + "'" : String.valueOf(bad)),
          e.getMessage());
      assertTrue(e.getMessage().contains("4 tablets"), e.getMessage());
      assertTrue(e.getMessage().contains("0 to 3"), e.getMessage());
    }
  }

  @Test
  void theKeyHashIsFnv1aOverTheDocumentedBytes() {
    // Computed outside Java: FNV-1a 64 over 04 00000007 "user-42" 02 0000000000000007.
    assertEquals(0xe632a52cc90b1b45L, ChosenOutputTablet.keyHash(KEY, List.of("user-42", 7L)));
    assertEquals(5, ChosenOutputTablet.byKey(KEY, List.of("user-42", 7L), 16));
    assertEquals(0, ChosenOutputTablet.byKey(KEY, List.of("user-42", 7L), 7), "unsigned modulo");
    assertEquals(
        0xaf63bd4c8601b7dfL,
        ChosenOutputTablet.keyHash(List.of("user"), Arrays.asList((Object) null)),
        "a null key value is a tag byte 0");
    assertEquals(
        ChosenOutputTablet.keyHash(KEY, List.of("user-42", 7L)),
        ChosenOutputTablet.keyHash(KEY, List.of("user-42", 7)),
        "an integer hashes the same whatever its width");
  }

  @Test
  void oneKeyOneTabletAndKeysSpreadOverAllTablets() {
    TreeSet<Integer> used = new TreeSet<>();
    for (int u = 0; u < 200; u++) {
      int first = ChosenOutputTablet.byKey(KEY, List.of("user-" + u, 1L), 8);
      assertEquals(first, ChosenOutputTablet.byKey(KEY, List.of("user-" + u, 1L), 8));
      used.add(first);
    }
    assertEquals(8, used.size(), "200 keys use every one of 8 tablets");
  }

  @Test
  void aStringHashesAsItsUtf8Bytes() {
    assertEquals(
        ChosenOutputTablet.keyHash(List.of("u"), List.of("zürich")),
        ChosenOutputTablet.keyHash(
            List.of("u"), List.of((Object) "zürich".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void theColumnsAreNotConcatenatedAmbiguously() {
    assertTrue(
        ChosenOutputTablet.keyHash(KEY, List.of("ab", "c"))
            != ChosenOutputTablet.keyHash(KEY, List.of("a", "bc")));
  }

  @Test
  void aValueTheHashDoesNotDefineIsRefusedNamingTheColumn() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ChosenOutputTablet.byKey(KEY, List.of("u", new ArrayList<>()), 4));
    assertTrue(e.getMessage().contains("shard"), e.getMessage());
  }
}
