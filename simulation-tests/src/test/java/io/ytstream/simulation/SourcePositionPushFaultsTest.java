package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.PushRowsBySourcePosition;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The producer {@code ForeachWriter}'s pushes ({@link PushRowsBySourcePosition}) on the
 * simulation's cluster in the situations Real-time Mode's seeds seldom reach: a filter's gaps in
 * the source row indexes, a replay after a restart (DUPLICATE_WRITE if the server did not skip it),
 * a newer writer of the session (the older one is fenced and writes nothing), a row out of source
 * order (refused with the fix named), a failed task's buffer dropped.
 */
class SourcePositionPushFaultsTest {

  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private final List<Integer> requestSizes = new ArrayList<>();
  private final List<String> heard = new ArrayList<>();
  private FaultyPorts ports;

  SourcePositionPushFaultsTest() {
    cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), 1);
    cluster.createQueueProducer(Workload.PRODUCER);
    ports = new FaultyPorts(cluster, new FaultClock(FaultSchedule.parse("")));
    ports.onWrite((call, rows) -> requestSizes.add(rows));
  }

  private PushRowsBySourcePosition writer() {
    return new PushRowsBySourcePosition(
        "YtProducerForeachWriter",
        ports,
        Workload.PRODUCER,
        Workload.OUTPUT,
        "writer-1",
        new PushRowsBySourcePosition.Listener() {
          @Override
          public void sessionOpened(ProducerSessionId session, long epoch, long sequenceNumber) {
            heard.add("opened " + session.sessionId() + " at " + sequenceNumber);
          }

          @Override
          public void skipped(ProducerSessionId session, long skipped, long rows, long firstRow) {
            heard.add("skipped " + skipped + " of " + rows + " from " + firstRow);
          }
        });
  }

  private static Row row(long r) {
    return Row.of("p", 0L, "r", r, "i", 0L, "v", r * 2 + 1, "$tablet_index", 0L);
  }

  private long outputRows() {
    return cluster.readChanges(Workload.OUTPUT).rowCount();
  }

  private Row session() {
    List<Row> sessions = cluster.producerSessions(Workload.PRODUCER);
    assertEquals(1, sessions.size(), "one session: " + sessions);
    return sessions.get(0);
  }

  @Test
  void aFiltersGapsSplitThePushAndTheSessionRecordsTheLastSourceRow() {
    PushRowsBySourcePosition w = writer();
    int buffered = 0;
    for (long r : new long[] {0, 1, 3, 4, 5}) {
      assertEquals(++buffered, w.add("//q", 0, r, row(r)), "add returns the rows buffered");
    }
    assertEquals(5, w.buffered());
    w.pushAll();
    assertEquals(0, w.buffered());
    assertEquals(List.of(2, 3), requestSizes, "one push per run of consecutive source rows");
    assertEquals(5, w.pushedRowCount());
    assertEquals(0, w.skippedRowCount());
    assertEquals(5, outputRows());
    Row s = session();
    assertEquals(5L, s.get("sequence_number"));
    assertEquals("writer-1://q:0", s.get("session_id"));
    Map<?, ?> meta = (Map<?, ?>) s.get("user_meta");
    assertEquals(5L, ((Number) meta.get("source_row_index")).longValue());
    assertEquals(0L, ((Number) meta.get("source_tablet_index")).longValue());
    assertEquals("//q", meta.get("source_queue"));
  }

  @Test
  void aReplayAfterARestartIsSkippedByTheServerAndHeard() {
    PushRowsBySourcePosition first = writer();
    for (long r = 0; r < 3; r++) {
      first.add("//q", 0, r, row(r));
    }
    first.pushAll();
    PushRowsBySourcePosition replay = writer();
    for (long r = 0; r < 4; r++) {
      replay.add("//q", 0, r, row(r));
    }
    replay.pushAll();
    assertEquals(4, replay.pushedRowCount());
    assertEquals(3, replay.skippedRowCount());
    assertEquals(4, outputRows(), "DUPLICATE_WRITE or LOST_WRITE");
    assertEquals(
        List.of(
            "opened writer-1://q:0 at -1", "opened writer-1://q:0 at 2", "skipped 3 of 4 from 0"),
        heard);
  }

  @Test
  void aReplayOfExactlyWhatLandedIsSkippedWhole() {
    PushRowsBySourcePosition first = writer();
    first.add("//q", 0, 0, row(0));
    first.add("//q", 0, 1, row(1));
    first.pushAll();
    PushRowsBySourcePosition replay = writer();
    replay.add("//q", 0, 0, row(0));
    replay.add("//q", 0, 1, row(1));
    replay.pushAll();
    assertEquals(2, replay.skippedRowCount());
    assertEquals(2, outputRows(), "DUPLICATE_WRITE");
  }

  @Test
  void anOlderWriterIsFencedByANewerOneAndWritesNothing() {
    PushRowsBySourcePosition older = writer();
    older.add("//q", 0, 7, row(7));
    older.add("//q", 0, 8, row(8));
    PushRowsBySourcePosition newer = writer();
    newer.add("//q", 0, 7, row(7));
    ProducerFencedException e = assertThrows(ProducerFencedException.class, older::pushAll);
    assertTrue(
        e.getMessage().contains("source rows 7..8 was written")
            && e.getMessage().contains("give each query its own writerId"),
        e.getMessage());
    assertEquals(0, outputRows());
    newer.pushAll();
    assertEquals(1, outputRows());
  }

  @Test
  void aRowOutOfSourceOrderIsRefusedWithTheFixNamed() {
    PushRowsBySourcePosition w = writer();
    w.add("//q", 2, 5, row(5));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> w.add("//q", 2, 5, row(5)));
    assertTrue(
        e.getMessage().startsWith("YtProducerForeachWriter: source row 5 of tablet 2 of //q")
            && e.getMessage().contains("came after row 5")
            && e.getMessage().contains("Drop explode/flatMap"),
        e.getMessage());
    IllegalStateException unnamed =
        assertThrows(IllegalStateException.class, () -> w.add("", 3, -1, row(0)));
    assertTrue(unnamed.getMessage().contains("of tablet 3 came after"), unnamed.getMessage());
  }

  @Test
  void aFailedTasksBufferIsDropped() {
    PushRowsBySourcePosition w = writer();
    w.add("//q", 0, 0, row(0));
    w.clear();
    assertEquals(0, w.buffered());
    w.pushAll();
    assertEquals(List.of(), requestSizes);
    assertEquals(0, outputRows());
  }
}
