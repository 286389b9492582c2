package io.ytstream.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class YtExceptionTest {

  @Test
  void topLevelOnly() {
    YtException e = new YtException(1700, "lock conflict");
    assertEquals(1700, e.code());
    assertEquals(List.of(1700), List.copyOf(e.codes()));
    assertEquals("lock conflict (code 1700)", e.getMessage());
    assertTrue(e.hasCode(1700));
    assertFalse(e.hasCode(1));
    assertEquals(null, e.getCause());
  }

  @Test
  void innerCodesOutermostFirstWithoutDuplicates() {
    Throwable cause = new RuntimeException("io");
    YtException e = new YtException(1, "wrapped", List.of(3100, 1, 1700, 3100), cause);
    assertEquals(1, e.code());
    assertEquals(List.of(1, 3100, 1700), List.copyOf(e.codes()));
    assertTrue(e.hasCode(3100));
    assertTrue(e.hasCode(1700));
    assertFalse(e.hasCode(11003));
    assertSame(cause, e.getCause());
    assertThrows(UnsupportedOperationException.class, () -> e.codes().add(5));
  }

  @Test
  void commitOutcomeUnknown() {
    Throwable cause = new RuntimeException("timeout");
    CommitOutcomeUnknownException e = new CommitOutcomeUnknownException("lost response", cause);
    assertEquals("lost response", e.getMessage());
    assertSame(cause, e.getCause());
  }
}
