package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.BatchShareDecision.Action;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link PushBatchShare} over adapter-inmemory's cluster: a sink task's share of a batch. */
class PushBatchShareTest {

  private static final YPath QUEUE = YPath.of("//out");
  private static final YPath PRODUCER = YPath.of("//producer");
  private static final String QUERY = "3f1c-query";
  private static final Optional<StreamOffsets> END =
      Optional.of(StreamOffsets.ofQueue(QueueId.of("primary", "//in"), Map.of(0, 7L, 1, 3L)));

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final PushBatchShare shares =
      new PushBatchShare(cluster.queueProducers(), cluster.transactions());

  @BeforeEach
  void tables() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "string", false, true)), 2);
    cluster.createQueueProducer(PRODUCER);
  }

  private static List<Row> rows(int tablet, String... values) {
    List<Row> rows = new ArrayList<>();
    for (String value : values) {
      rows.add(Row.of("$tablet_index", (long) tablet, "v", value));
    }
    return rows;
  }

  private List<Object> queue(int tablet) {
    List<Object> values = new ArrayList<>();
    cluster.rows(QUEUE, tablet, 0).forEach(r -> values.add(r.get("v")));
    return values;
  }

  private PushBatchShare.OpenSession open(int partition) {
    return shares.open(PRODUCER, QUEUE, QUERY, partition);
  }

  @Test
  void theSessionIsNamedByTheQueryAndTheTaskPartition() {
    assertEquals(
        QUERY + "/partition-4", PushBatchShare.sessionOf(PRODUCER, QUEUE, QUERY, 4).sessionId());
    assertThrows(
        IllegalArgumentException.class, () -> PushBatchShare.sessionOf(PRODUCER, QUEUE, " ", 0));
    assertThrows(
        IllegalArgumentException.class, () -> PushBatchShare.sessionOf(PRODUCER, QUEUE, QUERY, -1));
  }

  @Test
  void aShareIsPushedNumberedFromItsBatchAndRecordedInUserMeta() {
    BatchShareOutcome outcome = shares.push(open(0), 5, rows(1, "a", "b"), 100, END);

    assertEquals(Action.PUSH, outcome.decision().action());
    assertEquals(2, outcome.writtenRowCount());
    assertEquals(0, outcome.skippedRowCount());
    assertEquals(List.of("a", "b"), queue(1));
    PushBatchShare.OpenSession again = open(0);
    assertEquals(BatchShareNumbering.base(5) + 1, again.sequenceNumber());
    PushedBatch recorded = again.lastPushed().orElseThrow();
    assertEquals(5, recorded.batchId());
    assertEquals(2, recorded.rowCount());
    assertEquals(QUERY, recorded.queryId());
    assertEquals(0, recorded.taskPartition());
    assertEquals(END, recorded.sourceEnd());
  }

  @Test
  void aReplayedShareIsNotPushedAgain() {
    shares.push(open(0), 5, rows(0, "a", "b", "c"), 100, END);

    BatchShareOutcome replay = shares.push(open(0), 5, rows(0, "a", "b", "c"), 100, END);

    assertEquals(Action.ALREADY_PUSHED, replay.decision().action());
    assertEquals(3, replay.skippedRowCount(), "the session held all three");
    assertEquals(0, replay.writtenRowCount());
    assertTrue(replay.pushed().isEmpty());
    assertEquals(List.of("a", "b", "c"), queue(0));
  }

  @Test
  void theNextBatchIsPushedAfterAReplay() {
    shares.push(open(0), 5, rows(0, "a"), 100, END);
    shares.push(open(0), 5, rows(0, "a"), 100, END);

    BatchShareOutcome next = shares.push(open(0), 6, rows(0, "b"), 100, Optional.empty());

    assertEquals(1, next.writtenRowCount());
    assertEquals(List.of("a", "b"), queue(0));
    assertTrue(open(0).lastPushed().orElseThrow().sourceEnd().isEmpty());
  }

  @Test
  void aReplayOverAnotherSourceRangeIsRefusedAndPushesNothing() {
    shares.push(open(0), 4, rows(0, "a", "b"), 100, END);
    Optional<StreamOffsets> otherEnd =
        Optional.of(StreamOffsets.ofQueue(QueueId.of("primary", "//in"), Map.of(0, 9L, 1, 3L)));

    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> shares.push(open(0), 4, rows(0, "x", "y"), 100, otherEnd));

    assertTrue(e.getMessage().contains("batch 4 of query " + QUERY), e.getMessage());
    assertTrue(e.getMessage().contains("new checkpoint location"), e.getMessage());
    assertEquals(List.of("a", "b"), queue(0));
    assertEquals(
        Action.ALREADY_PUSHED,
        shares.push(open(0), 4, rows(0, "a", "b"), 100, END).decision().action());
  }

  @Test
  void aReplayWithAnotherRowCountPushesNothing() {
    shares.push(open(0), 5, rows(0, "a", "b"), 100, END);

    BatchShareOutcome grown = shares.push(open(0), 5, rows(0, "a", "b", "x"), 100, END);

    assertEquals(Action.OUTPUT_CHANGED, grown.decision().action());
    assertEquals(2, grown.decision().earlierRowCount());
    assertTrue(grown.pushed().isEmpty());
    assertEquals(List.of("a", "b"), queue(0), "the earlier attempt's rows stand alone");
  }

  @Test
  void aCheckpointBehindTheSessionPushesNothing() {
    shares.push(open(0), 6, rows(0, "later"), 100, END);

    BatchShareOutcome old = shares.push(open(0), 5, rows(0, "a"), 100, END);

    assertEquals(Action.LATER_BATCH_PUSHED, old.decision().action());
    assertEquals(List.of("later"), queue(0));
    assertEquals(6, open(0).lastPushed().orElseThrow().batchId(), "user_meta not set back");
  }

  @Test
  void tasksHaveSessionsOfTheirOwn() {
    shares.push(open(0), 5, rows(0, "p0"), 100, END);

    BatchShareOutcome other = shares.push(open(1), 5, rows(0, "p1"), 100, END);

    assertEquals(1, other.writtenRowCount(), "partition 1's numbers are not partition 0's");
    assertEquals(List.of("p0", "p1"), queue(0));
  }

  @Test
  void aShareOverThePerTabletLimitInItsFirstChunkIsRefusedBeforeAnyPush() {
    List<Row> rows = rows(1, "a", "b", "c");
    rows.addAll(rows(0, "d"));
    PushBatchShare.OpenSession session = open(0);

    BatchShareTooLargeException e =
        assertThrows(
            BatchShareTooLargeException.class, () -> shares.push(session, 5, rows, 2, END));

    assertEquals(1, e.tablet());
    assertEquals(3, e.rows());
    assertEquals(2, e.limit());
    assertTrue(e.getMessage().contains("output tablet 1"), e.getMessage());
    assertTrue(e.getMessage().contains("nothing was pushed"), e.getMessage());
    assertEquals(List.of(), queue(0));
    assertEquals(List.of(), queue(1));
    assertEquals(-1, open(0).sequenceNumber(), "the session was not pushed to");
  }

  @Test
  void anEarlierAttemptIsFencedByANewerOneAndWritesNothing() {
    PushBatchShare.OpenSession old = open(0);
    PushBatchShare.OpenSession newer = open(0);

    ProducerFencedException e =
        assertThrows(
            ProducerFencedException.class, () -> shares.push(old, 5, rows(0, "a"), 100, END));

    assertTrue(e.getMessage().contains("task partition 0 of batch 5"), e.getMessage());
    assertTrue(e.getMessage().contains("second driver"), e.getMessage());
    assertEquals(List.of(), queue(0));
    assertEquals(1, shares.push(newer, 5, rows(0, "a"), 100, END).writtenRowCount());
  }

  @Test
  void aLostAnswerIsSentAgainAndTheServerSkipsWhatLanded() {
    PushBatchShare.OpenSession session = open(0);
    cluster
        .faults()
        .failNextAfterApplying(
            ClusterOperation.TX_PRODUCER_PUSH,
            1,
            YtErrorCode.HTTP_SERVICE_UNAVAILABLE,
            "answer lost after the push landed");

    BatchShareOutcome outcome = shares.push(session, 5, rows(0, "a", "b"), 100, END);

    assertEquals(2, outcome.writtenRowCount(), "the first copy landed in the transaction");
    assertEquals(0, outcome.skippedRowCount(), "the repeat skipped a copy, not held rows");
    assertEquals(List.of("a", "b"), queue(0));
  }

  @Test
  void anEmptyShareIsNotPushed() {
    BatchShareOutcome outcome = shares.push(open(0), 5, List.of(), 100, END);

    assertEquals(Action.NOTHING_TO_PUSH, outcome.decision().action());
    assertFalse(outcome.pushed().isPresent());
    assertTrue(open(0).lastPushed().isEmpty());
  }

  @Test
  void aUserMetaThisSinkDidNotWriteIsNoRecord() {
    assertTrue(PushedBatch.fromUserMeta(Optional.of("something else")).isEmpty());
    assertTrue(PushedBatch.fromUserMeta(Optional.of(Map.of("batch_id", 1L))).isEmpty());
    assertTrue(PushedBatch.fromUserMeta(Optional.empty()).isEmpty());
  }
}
