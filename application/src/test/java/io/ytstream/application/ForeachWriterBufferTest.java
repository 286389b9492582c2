package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForeachWriterBufferTest {

  /** Rows held as numbers; each write records what it wrote, or fails once when told to. */
  private static final class Held implements ForeachWriterBuffer.Pending {
    final List<Integer> rows = new ArrayList<>();
    final List<List<Integer>> writes = new ArrayList<>();
    RuntimeException failNext;

    int add(int row) {
      rows.add(row);
      return rows.size();
    }

    @Override
    public int buffered() {
      return rows.size();
    }

    @Override
    public void writeAll() {
      if (failNext != null) {
        RuntimeException e = failNext;
        failNext = null;
        throw e;
      }
      if (!rows.isEmpty()) {
        writes.add(List.copyOf(rows));
        rows.clear();
      }
    }

    @Override
    public void clear() {
      rows.clear();
    }
  }

  private final Held held = new Held();

  @Test
  void aTimedBufferWritesWhenFullOrOnTheTimerAndAnUntimedOneAtOnce() {
    ForeachWriterBuffer timed = new ForeachWriterBuffer(held, 3, true, "writing to //t");
    timed.add(() -> held.add(1));
    timed.add(() -> held.add(2));
    assertEquals(List.of(), held.writes, "not full yet");
    timed.add(() -> held.add(3));
    timed.add(() -> held.add(4));
    timed.timerFlush();
    assertEquals(List.of(List.of(1, 2, 3), List.of(4)), held.writes);

    Held other = new Held();
    ForeachWriterBuffer untimed = new ForeachWriterBuffer(other, 3, false, "writing to //t");
    untimed.add(() -> other.add(7));
    assertEquals(List.of(List.of(7)), other.writes, "no timer: every row at once");
  }

  @Test
  void aFailedTimerWriteFailsTheNextCallNamingTheWrite() {
    ForeachWriterBuffer buffer = new ForeachWriterBuffer(held, 10, true, "writing to //t");
    buffer.add(() -> held.add(1));
    held.failNext = new IllegalArgumentException("tablet unmounted");

    buffer.timerFlush();

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> buffer.add(() -> held.add(2)));
    assertEquals("writing to //t failed: tablet unmounted", e.getMessage());
    assertThrows(IllegalStateException.class, buffer::flush);
    assertEquals(List.of(1), held.rows, "the row of the failed add was not taken");
  }

  @Test
  void aFencedTimerPushFailsTheNextCallAsItself() {
    ForeachWriterBuffer buffer = new ForeachWriterBuffer(held, 10, true, "pushing to //q");
    buffer.add(() -> held.add(1));
    ProducerFencedException fenced =
        new ProducerFencedException("a newer epoch holds the session", null);
    held.failNext = fenced;

    buffer.timerFlush();

    assertSame(fenced, assertThrows(ProducerFencedException.class, buffer::flush));
  }

  @Test
  void aFailedTaskDropsWhatIsBuffered() {
    ForeachWriterBuffer buffer = new ForeachWriterBuffer(held, 10, true, "writing to //t");
    buffer.add(() -> held.add(1));

    buffer.drop();
    buffer.flush();

    assertTrue(held.writes.isEmpty());
  }
}
