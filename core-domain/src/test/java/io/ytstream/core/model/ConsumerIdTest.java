package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ConsumerIdTest {

  @Test
  void valueAndText() {
    ConsumerId c = ConsumerId.of("primary", "//home/consumer");
    assertEquals("primary", c.cluster());
    assertEquals(YPath.of("//home/consumer"), c.path());
    assertEquals("primary://home/consumer", c.toString());
    assertEquals(c, new ConsumerId("primary", YPath.of("//home/consumer")));
  }

  @Test
  void validation() {
    assertThrows(IllegalArgumentException.class, () -> ConsumerId.of("", "//c"));
    assertThrows(IllegalArgumentException.class, () -> ConsumerId.of("a:b", "//c"));
    assertThrows(IllegalArgumentException.class, () -> ConsumerId.of("a", "c"));
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> new ConsumerId("a", null));
    assertEquals("path", e.getMessage());
  }
}
