package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.BatchShareDecision.Action;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PushBatchShare} pushing a share in chunks inside one tablet transaction, over
 * adapter-inmemory's cluster, which tracks each session's number within a transaction as the server
 * does: a crash before the commit leaves nothing and the replay pushes everything; after the commit
 * a replay pushes nothing; lost answers of a chunk or of the commit cost no row and no duplicate.
 */
class PushBatchShareInChunksTest {

  private static final YPath QUEUE = YPath.of("//out");
  private static final YPath PRODUCER = YPath.of("//producer");
  private static final String QUERY = "9a7e-query";
  private static final int TABLETS = 2;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Optional<StreamOffsets> END =
      Optional.of(StreamOffsets.ofQueue(QueueId.of("primary", "//in"), Map.of(0, 40L)));

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final CountingProducers producers = new CountingProducers(cluster.queueProducers());
  private final PushBatchShare shares = new PushBatchShare(producers, cluster.transactions());

  /** Counts the pushes the use case sends, and what each carried. */
  private static final class CountingProducers implements QueueProducers {
    final QueueProducers delegate;
    final List<ProducerPush> pushes = new ArrayList<>();

    CountingProducers(QueueProducers delegate) {
      this.delegate = delegate;
    }

    @Override
    public ProducerSession createSession(ProducerSessionId session) {
      return delegate.createSession(session);
    }

    @Override
    public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
      return delegate.createSession(session, userMeta);
    }

    @Override
    public void removeSession(ProducerSessionId session) {
      delegate.removeSession(session);
    }

    @Override
    public PushResult push(ProducerPush push) {
      pushes.add(push);
      return delegate.push(push);
    }

    @Override
    public PushResult push(ProducerPush push, TransactionId transaction) {
      pushes.add(push);
      return delegate.push(push, transaction);
    }
  }

  @BeforeEach
  void tables() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), TABLETS);
    cluster.createQueueProducer(PRODUCER);
  }

  /** Rows {@code from..to-1} of task 0's share, each in the tablet the writers' rule names. */
  private static List<Row> rows(long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long k = from; k < to; k++) {
      rows.add(Row.of("$tablet_index", (long) OutputTablets.forRow(0, k, TABLETS), "v", 1000 + k));
    }
    return rows;
  }

  /** Every value in the queue, tablet by tablet. */
  private List<Long> queue() {
    List<Long> values = new ArrayList<>();
    for (int t = 0; t < TABLETS; t++) {
      cluster.rows(QUEUE, t, 0).forEach(r -> values.add((Long) r.get("v")));
    }
    values.sort(null);
    return values;
  }

  private static List<Long> values(long from, long to) {
    List<Long> values = new ArrayList<>();
    for (long k = from; k < to; k++) {
      values.add(1000 + k);
    }
    return values;
  }

  private PushBatchShare.OpenSession open() {
    return shares.open(PRODUCER, QUEUE, QUERY, 0);
  }

  /** Hands in rows {@code 0..rowCount-1} in chunks of {@code chunk}, then finishes. */
  private BatchShareOutcome pushInChunks(
      PushBatchShare.OpenSession session, long batch, int rowCount, int chunk, long limit) {
    PushBatchShare.Share share = shares.start(session, batch, limit, END, TIMEOUT);
    int from = 0;
    for (; from + chunk < rowCount; from += chunk) {
      shares.pushChunk(share, rows(from, from + chunk));
    }
    return shares.finish(share, rows(from, rowCount));
  }

  @Test
  void chunksGoIntoOneTransactionNumberedOnAndLandAtTheFinish() {
    PushBatchShare.Share share = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(share, rows(0, 4));
    shares.pushChunk(share, rows(4, 8));

    assertEquals(List.of(), queue(), "nothing is visible before the share's commit");
    assertEquals(7, share.pushedRowCount(), "the last row handed in waits for the next push");

    BatchShareOutcome outcome = shares.finish(share, rows(8, 10));

    assertEquals(Action.PUSH, outcome.decision().action());
    assertEquals(10, outcome.writtenRowCount());
    assertEquals(values(0, 10), queue());
    long base = BatchShareNumbering.base(3);
    List<Long> firsts = new ArrayList<>();
    producers.pushes.forEach(p -> firsts.add(p.firstSequenceNumber().getAsLong()));
    assertEquals(List.of(base, base + 3, base + 7), firsts, "numbered on from push to push");
    assertFalse(producers.pushes.get(0).userMeta().isPresent());
    assertFalse(producers.pushes.get(1).userMeta().isPresent());
    assertEquals(3, producers.pushes.get(2).rows().size(), "the held-back row and the last two");
    PushBatchShare.OpenSession again = open();
    assertEquals(base + 9, again.sequenceNumber());
    PushedBatch recorded = again.lastPushed().orElseThrow();
    assertEquals(3, recorded.batchId());
    assertEquals(10, recorded.rowCount(), "the row count, known only at the last push");
    assertEquals(END, recorded.sourceEnd());
  }

  @Test
  void aCrashBeforeTheCommitLeavesNothingAndTheReplayPushesTheWholeShare() {
    PushBatchShare.Share crashed = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(crashed, rows(0, 5));
    shares.pushChunk(crashed, rows(5, 10));
    // The executor dies here: no finish, no abort; its transaction is left open.

    BatchShareOutcome replay = pushInChunks(open(), 3, 12, 5, 100);

    assertEquals(Action.PUSH, replay.decision().action(), "the session held nothing of batch 3");
    assertEquals(12, replay.writtenRowCount());
    assertEquals(values(0, 12), queue(), "every row once");
    assertEquals(12, open().lastPushed().orElseThrow().rowCount());
  }

  @Test
  void anAbortedShareLeavesNothing() {
    PushBatchShare.Share share = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(share, rows(0, 5));
    shares.abort(share);

    assertEquals(List.of(), queue());
    assertEquals(-1, open().sequenceNumber());
    assertThrows(IllegalStateException.class, () -> shares.finish(share, List.of()));
  }

  @Test
  void aReplayAfterTheCommitPushesNothingAndFindsTheSameRowCount() {
    pushInChunks(open(), 3, 12, 5, 100);
    int pushesBefore = producers.pushes.size();

    BatchShareOutcome replay = pushInChunks(open(), 3, 12, 4, 100);

    assertEquals(Action.ALREADY_PUSHED, replay.decision().action());
    assertEquals(12, replay.skippedRowCount());
    assertEquals(0, replay.writtenRowCount());
    assertEquals(pushesBefore, producers.pushes.size(), "not one push");
    assertEquals(values(0, 12), queue());
  }

  @Test
  void aReplayAfterTheCommitWithAnotherRowCountPushesNothing() {
    pushInChunks(open(), 3, 12, 5, 100);

    BatchShareOutcome grown = pushInChunks(open(), 3, 15, 5, 100);
    BatchShareOutcome shrunk = pushInChunks(open(), 3, 7, 5, 100);

    assertEquals(Action.OUTPUT_CHANGED, grown.decision().action());
    assertEquals(12, grown.decision().earlierRowCount());
    assertEquals(Action.OUTPUT_CHANGED, shrunk.decision().action());
    assertEquals(values(0, 12), queue(), "the earlier attempt's rows stand alone");
    assertEquals(BatchShareNumbering.base(3) + 11, open().sequenceNumber());
  }

  @Test
  void aLostAnswerOfAChunkIsSentAgainAndTheServerSkipsTheCopyWithinTheTransaction() {
    PushBatchShare.Share share = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(share, rows(0, 5));
    cluster
        .faults()
        .failNextAfterApplying(
            ClusterOperation.TX_PRODUCER_PUSH,
            1,
            YtErrorCode.HTTP_SERVICE_UNAVAILABLE,
            "answer lost after the push landed");
    shares.pushChunk(share, rows(5, 10));
    cluster
        .faults()
        .failNext(
            ClusterOperation.TX_PRODUCER_PUSH,
            1,
            YtErrorCode.HTTP_SERVICE_UNAVAILABLE,
            "request lost before the push landed");
    shares.pushChunk(share, rows(10, 15));

    BatchShareOutcome outcome = shares.finish(share, rows(15, 17));

    assertEquals(17, outcome.writtenRowCount());
    assertEquals(values(0, 17), queue(), "no row lost, none twice");
    assertEquals(BatchShareNumbering.base(3) + 16, open().sequenceNumber());
  }

  @Test
  void aLostAnswerOfTheCommitThatLandedIsResolvedFromTheSession() {
    cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);

    BatchShareOutcome outcome = pushInChunks(open(), 3, 12, 5, 100);

    assertEquals(Action.PUSH, outcome.decision().action());
    assertEquals(12, outcome.writtenRowCount());
    assertEquals(values(0, 12), queue());
    assertEquals(
        Action.ALREADY_PUSHED, pushInChunks(open(), 3, 12, 5, 100).decision().action(), "replay");
    assertEquals(values(0, 12), queue());
  }

  @Test
  void aLostCommitThatDidNotLandFailsTheTaskAndItsRetryPushesTheShare() {
    cluster.faults().unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);

    BatchShareNotCommittedException e =
        assertThrows(
            BatchShareNotCommittedException.class, () -> pushInChunks(open(), 3, 12, 5, 100));

    assertTrue(e.getMessage().contains("batch 3"), e.getMessage());
    assertTrue(e.getMessage().contains("Nothing of it is in the queue"), e.getMessage());
    assertEquals(List.of(), queue());
    BatchShareOutcome retry = pushInChunks(open(), 3, 12, 5, 100);
    assertEquals(Action.PUSH, retry.decision().action());
    assertEquals(values(0, 12), queue());
  }

  @Test
  void aNewerAttemptOpeningMidShareFailsTheOlderCommitAndPushesEverythingItself() {
    PushBatchShare.Share old = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(old, rows(0, 5));
    PushBatchShare.OpenSession newer = open();
    shares.pushChunk(old, rows(5, 10));

    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, () -> shares.finish(old, List.of()));

    assertTrue(e.getMessage().contains("lock conflict on the session row"), e.getMessage());
    assertEquals(List.of(), queue());
    assertEquals(10, pushInChunks(newer, 3, 10, 5, 100).writtenRowCount());
    assertEquals(values(0, 10), queue());
  }

  @Test
  void aShareOverThePerTabletLimitInALaterChunkIsAbortedAndNothingLands() {
    // 2 tablets, limit 6: row 12 is the seventh for tablet 0.
    PushBatchShare.Share share = shares.start(open(), 3, 6, END, TIMEOUT);
    shares.pushChunk(share, rows(0, 5));
    shares.pushChunk(share, rows(5, 10));

    BatchShareTooLargeException e =
        assertThrows(
            BatchShareTooLargeException.class, () -> shares.pushChunk(share, rows(10, 15)));

    assertEquals(0, e.tablet());
    assertEquals(7, e.rows());
    assertEquals(6, e.limit());
    assertTrue(e.getMessage().contains("nothing of it landed"), e.getMessage());
    assertEquals(10, producers.pushes.stream().mapToInt(p -> p.rows().size()).sum() + 1);
    assertEquals(List.of(), queue());
    assertEquals(-1, open().sequenceNumber(), "the session holds nothing of the share");
    assertThrows(IllegalStateException.class, () -> shares.finish(share, List.of()));
  }

  @Test
  void aShareAtTheLimitLands() {
    assertEquals(12, pushInChunks(open(), 3, 12, 5, 6).writtenRowCount());
    assertEquals(values(0, 12), queue());
  }

  @Test
  void aTransactionThatExpiresBetweenChunksFailsTheShareNamingItsTimeoutAndNothingLands() {
    PushBatchShare.Share share = shares.start(open(), 3, 100, END, TIMEOUT);
    shares.pushChunk(share, rows(0, 5));
    cluster.liveTransactions().forEach(id -> cluster.faults().expireTransaction(id));

    BatchShareNotCommittedException e =
        assertThrows(
            BatchShareNotCommittedException.class, () -> shares.pushChunk(share, rows(5, 10)));

    assertTrue(e.getMessage().contains("timeout 30000 ms) expired"), e.getMessage());
    assertEquals(List.of(), queue());
    assertEquals(10, pushInChunks(open(), 3, 10, 5, 100).writtenRowCount(), "the retry");
    assertEquals(values(0, 10), queue());
  }
}
