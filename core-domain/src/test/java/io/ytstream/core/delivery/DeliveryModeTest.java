package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeliveryModeTest {

  @Test
  void guarantees() {
    assertFalse(DeliveryMode.AT_LEAST_ONCE.isExactlyOnce());
    assertTrue(DeliveryMode.TRANSACTIONAL.isExactlyOnce());
    assertTrue(DeliveryMode.IDEMPOTENT_RECEIVER.isExactlyOnce());
    assertTrue(DeliveryMode.PRODUCER_SESSIONS.isExactlyOnce());
    assertEquals(4, DeliveryMode.values().length);
  }
}
