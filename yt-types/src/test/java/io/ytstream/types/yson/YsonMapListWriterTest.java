package io.ytstream.types.yson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YsonMapListWriterTest {

  @Test
  void writesTheBytesOfAListFragmentOfTheSameMaps() {
    List<Map<String, Object>> maps = new ArrayList<>();
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("id", 1L);
    first.put("payload", "text");
    first.put("none", null);
    maps.add(first);
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("u", new YsonUint64(-1L));
    second.put("d", 2.5);
    second.put("b", true);
    second.put("bytes", new byte[] {(byte) 0xFF, 0});
    second.put("list", Arrays.asList(1L, null, "x"));
    second.put("attributed", new YsonAttributed(Map.of("a", 1L), Map.of("k", "v")));
    maps.add(second);
    maps.add(new LinkedHashMap<>());

    YsonMapListWriter out = new YsonMapListWriter();
    for (Map<String, Object> map : maps) {
      out.startMap();
      map.forEach(out::entry);
      out.endMap();
    }
    assertArrayEquals(Yson.toBinaryListFragment(maps), out.toByteArray());
    assertEquals(maps.size(), Yson.parseListFragment(out.toByteArray()).size());
  }

  @Test
  void aValueYsonCannotHoldIsRefusedWithItsPlace() {
    YsonMapListWriter out = new YsonMapListWriter();
    out.startMap();
    out.endMap();
    out.startMap();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> out.entry("c", new Object()));
    assertTrue(e.getMessage().contains("cannot write a java.lang.Object"), e.getMessage());
    assertTrue(e.getMessage().contains("1") && e.getMessage().contains("c"), e.getMessage());
  }

  @Test
  void entriesAndEndsOutsideAMapAreRefused() {
    YsonMapListWriter out = new YsonMapListWriter();
    assertThrows(IllegalStateException.class, () -> out.entry("k", 1L));
    assertThrows(IllegalStateException.class, out::endMap);
    out.startMap();
    assertThrows(IllegalStateException.class, out::startMap);
    assertThrows(IllegalStateException.class, out::toByteArray);
  }
}
