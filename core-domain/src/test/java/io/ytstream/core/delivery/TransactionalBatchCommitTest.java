package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.delivery.TransactionalBatchCommit.State;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The transactional batch state machine against a transition table written out independently: every
 * reachable state is visited and every event tried in it; valid ones must land where the table
 * says, invalid ones must throw IllegalStateException and change nothing.
 */
class TransactionalBatchCommitTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final List<OffsetRange> RANGES =
      List.of(new OffsetRange(P0, 2, 5), new OffsetRange(P1, 0, 3));

  /** At the batch start; P1 has no row (missing = 0). */
  private static final StreamOffsets AT_LOWER = StreamOffsets.of(Map.of(P0, 2L));

  private static final StreamOffsets AT_UPPER = StreamOffsets.of(Map.of(P0, 5L, P1, 3L));
  private static final StreamOffsets MIXED = StreamOffsets.of(Map.of(P0, 5L, P1, 0L));
  private static final StreamOffsets ELSEWHERE = StreamOffsets.of(Map.of(P0, 4L, P1, 3L));
  private static final long BATCH = 7;

  enum Event {
    START,
    WRITE,
    READ_LOWER,
    READ_UPPER,
    READ_MIXED,
    READ_ELSEWHERE,
    COMMIT_OK,
    COMMIT_RETRY,
    COMMIT_FENCED,
    COMMIT_FAILED,
    COMMIT_UNKNOWN,
    COMMIT_TRANSPORT,
    RESOLVE_UPPER,
    RESOLVE_LOWER,
    RESOLVE_MIXED,
    ABANDON
  }

  /** Where a valid event leads, and the reason it leaves. */
  record Target(State state, String reason) {}

  private static final String MIXED_REASON =
      "another writer moved the consumer: some partitions are at the batch start and others at"
          + " its end. Is a second query (or an old driver) reading with the same consumer?";
  private static final String ELSEWHERE_REASON =
      "another writer moved the consumer: c://q#0 is at offset 4, expected 2 (not applied) or 5"
          + " (applied). Is a second query (or an old driver) reading with the same consumer?";

  private static final Map<State, Map<Event, Target>> TABLE = new EnumMap<>(State.class);

  private static void allow(State from, Event e, State to, String reason) {
    TABLE.computeIfAbsent(from, s -> new EnumMap<>(Event.class)).put(e, new Target(to, reason));
  }

  static {
    for (State s : State.values()) {
      TABLE.put(s, new EnumMap<>(Event.class));
    }
    allow(State.PLANNED, Event.START, State.OPEN, "");
    allow(State.OPEN, Event.WRITE, State.WRITTEN, "");
    allow(State.WRITTEN, Event.READ_LOWER, State.COMMITTING, "");
    allow(
        State.WRITTEN,
        Event.READ_UPPER,
        State.ALREADY_APPLIED,
        "consumer is at the batch end: applied earlier");
    allow(State.WRITTEN, Event.READ_MIXED, State.FENCED, MIXED_REASON);
    allow(State.WRITTEN, Event.READ_ELSEWHERE, State.FENCED, ELSEWHERE_REASON);
    allow(State.COMMITTING, Event.COMMIT_OK, State.COMMITTED, "");
    allow(State.COMMITTING, Event.COMMIT_RETRY, State.RETRY, "lock conflict (code 1700)");
    allow(State.COMMITTING, Event.COMMIT_FENCED, State.FENCED, "conflict (code 1)");
    allow(State.COMMITTING, Event.COMMIT_FAILED, State.FAILED, "too many rows (code 1717)");
    allow(State.COMMITTING, Event.COMMIT_UNKNOWN, State.OUTCOME_UNKNOWN, "timed out");
    allow(State.COMMITTING, Event.COMMIT_TRANSPORT, State.OUTCOME_UNKNOWN, "null");
    allow(State.OUTCOME_UNKNOWN, Event.RESOLVE_UPPER, State.COMMITTED, "commit landed");
    allow(State.OUTCOME_UNKNOWN, Event.RESOLVE_LOWER, State.RETRY, "commit did not land");
    allow(State.OUTCOME_UNKNOWN, Event.RESOLVE_MIXED, State.FENCED, MIXED_REASON);
    for (State s : List.of(State.PLANNED, State.OPEN, State.WRITTEN, State.COMMITTING)) {
      allow(s, Event.ABANDON, State.RETRY, "task failed");
    }
  }

  private static final Map<Event, CommitOutcome> COMMIT_OUTCOMES =
      Map.of(
          Event.COMMIT_OK, CommitOutcome.COMMITTED,
          Event.COMMIT_RETRY, CommitOutcome.RETRY_LATER,
          Event.COMMIT_FENCED, CommitOutcome.FENCED,
          Event.COMMIT_FAILED, CommitOutcome.FAILED,
          Event.COMMIT_UNKNOWN, CommitOutcome.UNKNOWN,
          Event.COMMIT_TRANSPORT, CommitOutcome.UNKNOWN);

  /** Applies an event to the machine, checking what the event returns. */
  private static void apply(TransactionalBatchCommit batch, Event e) {
    switch (e) {
      case START -> batch.transactionStarted();
      case WRITE -> batch.rowsWritten();
      case READ_LOWER ->
          assertEquals(RecoveryDecision.COMMIT, batch.consumerRead(AT_LOWER).decision());
      case READ_UPPER ->
          assertEquals(RecoveryDecision.ALREADY_APPLIED, batch.consumerRead(AT_UPPER).decision());
      case READ_MIXED ->
          assertEquals(RecoveryDecision.FENCED, batch.consumerRead(MIXED).decision());
      case READ_ELSEWHERE ->
          assertEquals(RecoveryDecision.FENCED, batch.consumerRead(ELSEWHERE).decision());
      case COMMIT_OK -> assertEquals(COMMIT_OUTCOMES.get(e), batch.commitFinished(null));
      case COMMIT_RETRY ->
          assertEquals(
              COMMIT_OUTCOMES.get(e),
              batch.commitFinished(
                  new YtException(YtErrorCode.TRANSACTION_LOCK_CONFLICT, "lock conflict")));
      case COMMIT_FENCED ->
          assertEquals(
              COMMIT_OUTCOMES.get(e),
              batch.commitFinished(
                  new YtException(
                      YtErrorCode.GENERIC,
                      "conflict",
                      List.of(YtErrorCode.CONSUMER_OFFSET_CONFLICT),
                      null)));
      case COMMIT_FAILED ->
          assertEquals(
              COMMIT_OUTCOMES.get(e),
              batch.commitFinished(
                  new YtException(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION, "too many rows")));
      case COMMIT_UNKNOWN ->
          assertEquals(
              COMMIT_OUTCOMES.get(e),
              batch.commitFinished(new CommitOutcomeUnknownException("timed out", null)));
      case COMMIT_TRANSPORT ->
          assertEquals(
              COMMIT_OUTCOMES.get(e),
              batch.commitFinished(new UncheckedIOException(null, new IOException("reset"))));
      case RESOLVE_UPPER ->
          assertEquals(
              RecoveryDecision.ALREADY_APPLIED, batch.outcomeResolved(AT_UPPER).decision());
      case RESOLVE_LOWER ->
          assertEquals(RecoveryDecision.COMMIT, batch.outcomeResolved(AT_LOWER).decision());
      case RESOLVE_MIXED ->
          assertEquals(RecoveryDecision.FENCED, batch.outcomeResolved(MIXED).decision());
      case ABANDON -> batch.abandoned("task failed");
    }
  }

  /** A shortest event path from PLANNED to every reachable state, by the table. */
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

  private static TransactionalBatchCommit replay(List<Event> path) {
    TransactionalBatchCommit batch = new TransactionalBatchCommit(BATCH, RANGES);
    for (Event e : path) {
      apply(batch, e);
    }
    return batch;
  }

  @Test
  void everyStateIsReachable() {
    assertEquals(EnumSet.allOf(State.class), pathsToStates().keySet());
  }

  @Test
  void everyEventInEveryState() {
    int valid = 0;
    int invalid = 0;
    for (Map.Entry<State, List<Event>> entry : pathsToStates().entrySet()) {
      State from = entry.getKey();
      for (Event e : Event.values()) {
        TransactionalBatchCommit batch = replay(entry.getValue());
        assertEquals(from, batch.state());
        String reasonBefore = batch.reason();
        Target target = TABLE.get(from).get(e);
        String ctx = from + " --" + e + "-->";
        if (target != null) {
          apply(batch, e);
          assertEquals(target.state(), batch.state(), ctx);
          assertEquals(target.reason(), batch.reason(), ctx);
          valid++;
        } else {
          IllegalStateException ex =
              assertThrows(IllegalStateException.class, () -> apply(batch, e), ctx);
          if (e == Event.ABANDON) {
            assertEquals("batch 7 cannot be abandoned in state " + from, ex.getMessage(), ctx);
          } else {
            assertTrue(
                ex.getMessage().startsWith("batch 7 is in state " + from + ", expected "),
                ctx + ": " + ex.getMessage());
          }
          assertEquals(from, batch.state(), ctx + ": state changed by an invalid event");
          // The state is checked before the arguments are looked at.
          if (from != State.WRITTEN) {
            assertThrows(IllegalStateException.class, () -> batch.consumerRead(null), ctx);
          }
          if (from != State.OUTCOME_UNKNOWN) {
            assertThrows(IllegalStateException.class, () -> batch.outcomeResolved(null), ctx);
          }
          assertEquals(reasonBefore, batch.reason(), ctx + ": reason changed by an invalid event");
          invalid++;
        }
      }
    }
    assertEquals(19, valid);
    assertEquals(10 * Event.values().length - 19, invalid);
  }

  @Test
  void invalidTransitionMessagesNameTheExpectedState() {
    TransactionalBatchCommit batch = new TransactionalBatchCommit(BATCH, RANGES);
    assertEquals(
        "batch 7 is in state PLANNED, expected OPEN",
        assertThrows(IllegalStateException.class, batch::rowsWritten).getMessage());
    assertEquals(
        "batch 7 is in state PLANNED, expected WRITTEN",
        assertThrows(IllegalStateException.class, () -> batch.consumerRead(AT_LOWER)).getMessage());
    assertEquals(
        "batch 7 is in state PLANNED, expected COMMITTING",
        assertThrows(IllegalStateException.class, () -> batch.commitFinished(null)).getMessage());
    assertEquals(
        "batch 7 is in state PLANNED, expected OUTCOME_UNKNOWN",
        assertThrows(IllegalStateException.class, () -> batch.outcomeResolved(AT_LOWER))
            .getMessage());
    batch.transactionStarted();
    assertEquals(
        "batch 7 is in state OPEN, expected PLANNED",
        assertThrows(IllegalStateException.class, batch::transactionStarted).getMessage());
  }

  /** Every path from PLANNED to an end, by depth-first search over the table. */
  @Test
  void everyValidPathEndsInAFinalState() {
    List<List<Event>> complete = new ArrayList<>();
    collect(State.PLANNED, new ArrayList<>(), complete);
    for (List<Event> path : complete) {
      TransactionalBatchCommit batch = replay(path);
      assertTrue(batch.state().isFinal(), path.toString());
      assertTrue(TABLE.get(batch.state()).isEmpty(), path + ": a final state accepts nothing");
    }
    // PLANNED/OPEN: abandon (2); WRITTEN: abandon, upper, mixed, elsewhere, lower -> COMMITTING
    // (abandon, ok, retry, fenced, failed, 2 x unknown -> 3 resolutions each).
    assertEquals(2 + 4 + (5 + 2 * 3), complete.size());
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
  void finalAndSuccessStates() {
    Set<State> finals =
        EnumSet.of(State.COMMITTED, State.ALREADY_APPLIED, State.RETRY, State.FENCED, State.FAILED);
    Set<State> successes = EnumSet.of(State.COMMITTED, State.ALREADY_APPLIED);
    for (State s : State.values()) {
      assertEquals(finals.contains(s), s.isFinal(), s.toString());
      assertEquals(successes.contains(s), s.isSuccess(), s.toString());
      assertEquals(finals.contains(s), TABLE.get(s).isEmpty(), s + ": table agrees");
    }
  }

  @Test
  void accessorsAndValidation() {
    List<OffsetRange> ranges = new ArrayList<>(RANGES);
    TransactionalBatchCommit batch = new TransactionalBatchCommit(BATCH, ranges);
    ranges.clear();
    assertEquals(BATCH, batch.batchId());
    assertEquals(RANGES, batch.ranges());
    assertEquals(State.PLANNED, batch.state());
    assertEquals("", batch.reason());
    assertEquals(
        "batch 3 has no rows: it is not run",
        assertThrows(
                IllegalArgumentException.class, () -> new TransactionalBatchCommit(3, List.of()))
            .getMessage());
    // An empty range is rejected up front, not after the transaction was opened and written.
    assertEquals(
        "batch 3 lists the empty range c://q#1[3,3): plans skip empty ranges",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new TransactionalBatchCommit(
                        3, List.of(new OffsetRange(P0, 0, 1), new OffsetRange(P1, 3, 3))))
            .getMessage());
  }

  @Test
  void abandonRequiresAReasonAndChangesNothingWithout() {
    TransactionalBatchCommit batch = new TransactionalBatchCommit(BATCH, RANGES);
    batch.transactionStarted();
    assertThrows(NullPointerException.class, () -> batch.abandoned(null));
    assertEquals(State.OPEN, batch.state());
    assertEquals("", batch.reason());
  }

  @Test
  void unknownOutcomeThatLandedIsSuccess() {
    TransactionalBatchCommit batch =
        replay(List.of(Event.START, Event.WRITE, Event.READ_LOWER, Event.COMMIT_UNKNOWN));
    assertFalse(batch.state().isFinal());
    RecoveryVerdict verdict = batch.outcomeResolved(AT_UPPER);
    assertEquals(RecoveryDecision.ALREADY_APPLIED, verdict.decision());
    assertTrue(batch.state().isSuccess());
  }
}
