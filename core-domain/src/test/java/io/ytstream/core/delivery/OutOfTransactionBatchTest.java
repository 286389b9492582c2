package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.commit.ConsumerAdvance;
import io.ytstream.core.delivery.OutOfTransactionBatch.State;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The at-least-once / idempotent-receiver batch state machine against its transition table. */
class OutOfTransactionBatchTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final StreamOffsets END = StreamOffsets.of(Map.of(P0, 5L, P1, 3L));

  /** P1 has no row (missing = 0). */
  private static final StreamOffsets BEHIND = StreamOffsets.of(Map.of(P0, 2L));

  private static final StreamOffsets AHEAD = StreamOffsets.of(Map.of(P0, 6L, P1, 3L));
  private static final long BATCH = 4;
  private static final String AHEAD_REASON =
      "consumer is beyond what batch 4 wrote at [c://q#0]: another query or an old driver is"
          + " using the same consumer";

  enum Event {
    WRITING,
    SINK,
    LOG,
    READ_BEHIND,
    READ_LEVEL,
    READ_AHEAD,
    ADVANCED,
    ADVANCE_FENCED,
    ABANDON
  }

  record Target(State state, String reason) {}

  private static final Map<State, Map<Event, Target>> TABLE = new EnumMap<>(State.class);

  private static void allow(State from, Event e, State to, String reason) {
    TABLE.get(from).put(e, new Target(to, reason));
  }

  static {
    for (State s : State.values()) {
      TABLE.put(s, new EnumMap<>(Event.class));
    }
    allow(State.PLANNED, Event.WRITING, State.WRITING, "");
    allow(State.WRITING, Event.SINK, State.SINK_COMMITTED, "");
    allow(State.SINK_COMMITTED, Event.LOG, State.LOGGED, "");
    allow(State.LOGGED, Event.READ_BEHIND, State.ADVANCING, "");
    allow(State.LOGGED, Event.READ_LEVEL, State.ADVANCING, "");
    allow(State.LOGGED, Event.READ_AHEAD, State.FENCED, AHEAD_REASON);
    allow(State.ADVANCING, Event.ADVANCED, State.DONE, "");
    allow(State.ADVANCING, Event.ADVANCE_FENCED, State.FENCED, "offset conflict");
    allow(State.PLANNED, Event.ABANDON, State.REPLAY, "executor lost");
    allow(State.WRITING, Event.ABANDON, State.REPLAY, "executor lost");
  }

  private static void apply(OutOfTransactionBatch batch, Event e) {
    switch (e) {
      case WRITING -> batch.writing();
      case SINK -> batch.sinkCommitted();
      case LOG -> batch.logCommitted();
      case READ_BEHIND ->
          assertEquals(
              List.of(new ConsumerAdvance(P0, 2, 5), new ConsumerAdvance(P1, 0, 3)),
              batch.consumerRead(BEHIND));
      case READ_LEVEL -> assertEquals(List.of(), batch.consumerRead(END));
      case READ_AHEAD -> assertEquals(List.of(), batch.consumerRead(AHEAD));
      case ADVANCED -> batch.consumerAdvanced(false, "ignored");
      case ADVANCE_FENCED -> batch.consumerAdvanced(true, "offset conflict");
      case ABANDON -> batch.abandoned("executor lost");
    }
  }

  private static Map<State, List<Event>> pathsToStates() {
    Map<State, List<Event>> paths = new EnumMap<>(State.class);
    paths.put(State.PLANNED, List.of());
    ArrayDeque<State> todo = new ArrayDeque<>(List.of(State.PLANNED));
    while (!todo.isEmpty()) {
      State s = todo.poll();
      for (Map.Entry<Event, Target> t : TABLE.get(s).entrySet()) {
        if (!paths.containsKey(t.getValue().state())) {
          List<Event> path = new ArrayList<>(paths.get(s));
          path.add(t.getKey());
          paths.put(t.getValue().state(), path);
          todo.add(t.getValue().state());
        }
      }
    }
    return paths;
  }

  @Test
  void everyEventInEveryStateForBothModes() {
    for (DeliveryMode mode :
        List.of(DeliveryMode.AT_LEAST_ONCE, DeliveryMode.IDEMPOTENT_RECEIVER)) {
      Map<State, List<Event>> paths = pathsToStates();
      assertEquals(EnumSet.allOf(State.class), paths.keySet());
      int valid = 0;
      for (Map.Entry<State, List<Event>> entry : paths.entrySet()) {
        State from = entry.getKey();
        for (Event e : Event.values()) {
          OutOfTransactionBatch batch = new OutOfTransactionBatch(mode, BATCH, END);
          assertEquals(mode, batch.mode());
          for (Event step : entry.getValue()) {
            apply(batch, step);
          }
          assertEquals(from, batch.state());
          String reasonBefore = batch.reason();
          Target target = TABLE.get(from).get(e);
          String ctx = mode + " " + from + " --" + e + "-->";
          if (target != null) {
            apply(batch, e);
            assertEquals(target.state(), batch.state(), ctx);
            assertEquals(target.reason(), batch.reason(), ctx);
            valid++;
          } else {
            IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> apply(batch, e), ctx);
            if (e == Event.ABANDON) {
              assertEquals("batch 4 cannot be abandoned in state " + from, ex.getMessage(), ctx);
            } else {
              assertTrue(
                  ex.getMessage().startsWith("batch 4 is in state " + from + ", expected "),
                  ctx + ": " + ex.getMessage());
            }
            assertEquals(from, batch.state(), ctx + ": state changed by an invalid event");
            assertEquals(reasonBefore, batch.reason(), ctx);
          }
        }
      }
      assertEquals(10, valid);
    }
  }

  @Test
  void everyValidPathEndsInDoneReplayOrFenced() {
    List<List<Event>> complete = new ArrayList<>();
    collect(State.PLANNED, new ArrayList<>(), complete);
    for (List<Event> path : complete) {
      OutOfTransactionBatch batch =
          new OutOfTransactionBatch(DeliveryMode.AT_LEAST_ONCE, BATCH, END);
      path.forEach(e -> apply(batch, e));
      assertTrue(
          EnumSet.of(State.DONE, State.REPLAY, State.FENCED).contains(batch.state()),
          path.toString());
    }
    // abandon x2; read ahead; (behind | level) x (advanced | fenced).
    assertEquals(2 + 1 + 4, complete.size());
  }

  private static void collect(State s, List<Event> path, List<List<Event>> out) {
    if (TABLE.get(s).isEmpty()) {
      out.add(List.copyOf(path));
      return;
    }
    for (Map.Entry<Event, Target> t : TABLE.get(s).entrySet()) {
      path.add(t.getKey());
      collect(t.getValue().state(), path, out);
      path.remove(path.size() - 1);
    }
  }

  @Test
  void messagesNameTheExpectedState() {
    OutOfTransactionBatch batch = new OutOfTransactionBatch(DeliveryMode.AT_LEAST_ONCE, BATCH, END);
    assertEquals(
        "batch 4 is in state PLANNED, expected WRITING",
        assertThrows(IllegalStateException.class, batch::sinkCommitted).getMessage());
    assertEquals(
        "batch 4 is in state PLANNED, expected SINK_COMMITTED",
        assertThrows(IllegalStateException.class, batch::logCommitted).getMessage());
    assertEquals(
        "batch 4 is in state PLANNED, expected LOGGED",
        assertThrows(IllegalStateException.class, () -> batch.consumerRead(END)).getMessage());
    assertEquals(
        "batch 4 is in state PLANNED, expected ADVANCING",
        assertThrows(IllegalStateException.class, () -> batch.consumerAdvanced(false, ""))
            .getMessage());
    batch.writing();
    assertEquals(
        "batch 4 is in state WRITING, expected PLANNED",
        assertThrows(IllegalStateException.class, batch::writing).getMessage());
  }

  @Test
  void consumerAheadOnlyWherePartitionsOfTheBatchAre() {
    OutOfTransactionBatch batch = new OutOfTransactionBatch(DeliveryMode.AT_LEAST_ONCE, BATCH, END);
    batch.writing();
    batch.sinkCommitted();
    batch.logCommitted();
    // A row for a partition the batch does not cover is not this batch's business.
    StreamOffsets other = StreamOffsets.of(Map.of(P0, 5L, new PartitionId(Q, 9), 100L));
    assertEquals(List.of(new ConsumerAdvance(P1, 0, 3)), batch.consumerRead(other));
    assertEquals(State.ADVANCING, batch.state());
  }

  @Test
  void rejectsTransactionalMode() {
    assertEquals(
        "transactional batches use TransactionalBatchCommit",
        assertThrows(
                IllegalArgumentException.class,
                () -> new OutOfTransactionBatch(DeliveryMode.TRANSACTIONAL, 1, END))
            .getMessage());
  }
}
