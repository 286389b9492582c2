package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.BatchShareNotCommittedException;
import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.BatchShareTooLargeException;
import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.ProducerTaskWriter;
import io.ytstream.application.PushBatchShare;
import io.ytstream.core.delivery.BatchShareDecision;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The situations of a producer share the seeded runs reach seldom or never, each through the
 * shipped {@link ProducerTaskWriter} and {@link PushBatchShare} over the simulation's faulty ports
 * and cluster: a share over the per-tablet row limit, a commit whose outcome is unknown (landed or
 * not), a commit that keeps failing, a session fenced mid-share, a transaction that expires between
 * chunks, a replay of a committed share, an empty share. Each checks what the output queue holds
 * afterwards by anomaly class (LOST_WRITE: a share's rows missing after it reported success;
 * DUPLICATE_WRITE: a row twice; PARTIAL_WRITE: part of a failed share visible;
 * TRANSACTION_LEFT_OPEN) and what the failure tells its user.
 */
class ProducerShareFaultsTest {

  private static final String QUERY = "query-1";
  private static final PartitionId SOURCE =
      Workload.forSeed(1, SimMode.PRODUCER, 1, 5).partitions().get(0);
  private static final Optional<StreamOffsets> END =
      Optional.of(StreamOffsets.of(Map.of(SOURCE, 10L)));

  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private FaultClock faults;
  private FaultyPorts ports;

  private FaultyPorts portsWith(String schedule, int tablets) {
    cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), tablets);
    cluster.createQueueProducer(Workload.PRODUCER);
    faults = new FaultClock(FaultSchedule.parse(schedule));
    ports = new FaultyPorts(cluster, faults);
    return ports;
  }

  private ProducerTaskWriter writer(
      long batch, int tablets, int chunk, long limit, Optional<StreamOffsets> end, Duration tx) {
    return new ProducerTaskWriter(
        () -> new PushBatchShare(ports, ports),
        new ProducerTaskWriter.Share(
            Workload.PRODUCER, Workload.OUTPUT, QUERY, 0, batch, tablets, chunk, limit, end, tx));
  }

  private ProducerTaskWriter writer(long batch, int chunk, long limit) {
    return writer(batch, 1, chunk, limit, END, Duration.ofSeconds(30));
  }

  /** Hands {@code n} rows to the writer; a row's value names it, so a copy shows. */
  private static void write(ProducerTaskWriter writer, int n) {
    for (long r = 0; r < n; r++) {
      Row row = Row.of("p", 0L, "r", r, "i", 0L, "v", r * 2 + 1);
      writer.write(tablet -> row.with("$tablet_index", (long) tablet));
    }
  }

  /** {@code n} rows at tablet 0, as a writer hands them to the share. */
  private static List<Row> rows(int n) {
    List<Row> rows = new ArrayList<>();
    for (long r = 0; r < n; r++) {
      rows.add(Row.of("p", 0L, "r", r, "i", 0L, "v", r * 2 + 1, "$tablet_index", 0L));
    }
    return rows;
  }

  private long outputRows() {
    return cluster.readChanges(Workload.OUTPUT).rowCount();
  }

  private void noTransactionLeftOpen() {
    for (TransactionId tx : ports.startedSince(0)) {
      assertFalse(ports.leftOpen(tx), "TRANSACTION_LEFT_OPEN: " + tx);
    }
  }

  private Row session() {
    List<Row> sessions = cluster.producerSessions(Workload.PRODUCER);
    assertEquals(1, sessions.size(), "one session: " + sessions);
    return sessions.get(0);
  }

  @Test
  void aShareOverTheTabletLimitAfterItsFirstChunkLandsNothingAndNamesTheLimit() {
    portsWith("", 1);
    ProducerTaskWriter w = writer(0, 2, 3);
    BatchShareTooLargeException e =
        assertThrows(BatchShareTooLargeException.class, () -> write(w, 5));
    assertEquals(0, e.tablet());
    assertEquals(4, e.rows());
    assertEquals(3, e.limit());
    assertTrue(
        e.getMessage().contains("more than 3 rows for output tablet 0")
            && e.getMessage().contains("its transaction was aborted, nothing of it landed"),
        e.getMessage());
    assertEquals(1, ports.startedCount(), "the first chunk went into the share's transaction");
    // The share aborts its own transaction, before Spark's abort of the writer.
    noTransactionLeftOpen();
    w.abort();
    assertEquals(0, outputRows(), "PARTIAL_WRITE: rows of a refused share are visible");
    // The task again, with a limit its share fits: every row lands once.
    ProducerTaskWriter again = writer(0, 2, 5);
    write(again, 5);
    assertEquals(BatchShareDecision.Action.PUSH, again.commit().orElseThrow().decision().action());
    assertEquals(5, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aShareOverTheTabletLimitInItsFirstChunkPushesNothing() {
    portsWith("", 2);
    ProducerTaskWriter w = writer(0, 2, 4, 1, END, Duration.ofSeconds(30));
    BatchShareTooLargeException e =
        assertThrows(BatchShareTooLargeException.class, () -> write(w, 4));
    // Rows go round-robin over two tablets: the third row is tablet 0's second.
    assertEquals(0, e.tablet());
    assertEquals(2, e.rows());
    assertEquals(1, e.limit());
    assertTrue(e.getMessage().endsWith("nothing was pushed"), e.getMessage());
    assertEquals(0, ports.startedCount(), "no transaction for a share refused before its push");
    assertEquals(0, outputRows());
  }

  @Test
  void aCommitWhoseAnswerWasLostIsResolvedAsLandedAndCountedOnce() {
    // COMMIT_UNKNOWN counts the push in the transaction (0) and the commit (1).
    portsWith("COMMIT_UNKNOWN@1:0", 1);
    ProducerTaskWriter w = writer(3, 10, 100);
    write(w, 4);
    BatchShareOutcome outcome = w.commit().orElseThrow();
    assertEquals(1, faults.fired(SimFault.COMMIT_UNKNOWN));
    assertEquals(4, outcome.writtenRowCount());
    assertEquals(0, outcome.skippedRowCount());
    assertEquals(4, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
    assertEquals(outcome.decision().lastSequenceNumber(), (Long) session().get("sequence_number"));
    noTransactionLeftOpen();
  }

  @Test
  void aCommitLostOnItsWayFailsTheTaskAndItsRetryWritesOnce() {
    portsWith("COMMIT_LOST@0:0", 1);
    ProducerTaskWriter w = writer(3, 10, 100);
    write(w, 4);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(
        e.getMessage().contains("holds sequence number -1, not the share's last ")
            && e.getMessage().contains("(4 row(s) in one tablet transaction) did not land")
            && e.getMessage().contains("running the task again pushes it again"),
        e.getMessage());
    w.abort();
    assertEquals(0, outputRows(), "PARTIAL_WRITE");
    noTransactionLeftOpen();
    ProducerTaskWriter retry = writer(3, 10, 100);
    write(retry, 4);
    assertEquals(4, retry.commit().orElseThrow().writtenRowCount());
    assertEquals(4, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aCommitLostWhoseSessionCannotBeReadFailsTheTaskWithBothErrors() {
    // Calls: create session 0, start 1, push 2, commit 3, the resolving create session 4.
    portsWith("COMMIT_LOST@0:0,PROXY_ERROR@4:0", 1);
    ProducerTaskWriter w = writer(3, 10, 100);
    write(w, 2);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(
        e.getMessage().contains("outcome is unknown and the session could not be read"),
        e.getMessage());
    assertEquals(1, e.getCause().getSuppressed().length, "the lost commit rides along");
    assertEquals(0, outputRows());
    noTransactionLeftOpen();
  }

  @Test
  void aCommitRefusedByTheProxyIsRetriedAndLandsOnce() {
    portsWith("PROXY_ERROR@3:0,PROXY_ERROR@4:0", 1);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    assertEquals(3, w.commit().orElseThrow().writtenRowCount());
    assertEquals(2, faults.fired(SimFault.PROXY_ERROR));
    assertEquals(3, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aCommitRefusedThreeTimesFailsTheTaskAndLandsNothing() {
    portsWith("PROXY_ERROR@3:0,PROXY_ERROR@4:0,PROXY_ERROR@5:0", 1);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(e.getMessage().contains("its commit failed 3 times"), e.getMessage());
    // The earlier attempts ride along, each on the one after it.
    assertEquals(1, e.getCause().getSuppressed().length);
    assertEquals(1, e.getCause().getSuppressed()[0].getSuppressed().length);
    assertEquals(0, outputRows(), "PARTIAL_WRITE");
    noTransactionLeftOpen();
  }

  @Test
  void aCommitMeetingALockConflictFailsAtOnceAndLandsNothing() {
    portsWith("LOCK_CONFLICT@0:0", 1);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(
        e.getMessage().contains("lock conflict on the session row")
            && e.getMessage().contains(QUERY + "/partition-0"),
        e.getMessage());
    assertEquals(1, faults.fired(SimFault.LOCK_CONFLICT), "not retried");
    assertEquals(0, outputRows());
    noTransactionLeftOpen();
  }

  @Test
  void aSessionTakenOverMidShareFailsTheCommitOnTheSessionRowAndLandsNothing() {
    // The second push of the share meets a newer writer: the share's transaction started before
    // that writer opened the session, so its commit meets the session row's lock (1700).
    portsWith("SESSION_TAKEN_OVER@1:0", 1);
    ProducerTaskWriter w = writer(2, 2, 100);
    write(w, 4);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(
        e.getMessage().contains("another attempt of this task or a second driver opened"),
        e.getMessage());
    w.abort();
    assertEquals(0, outputRows(), "PARTIAL_WRITE: a superseded attempt's rows are visible");
    noTransactionLeftOpen();
  }

  @Test
  void anAttemptWhoseSessionANewerAttemptOpenedIsFencedAndLandsNothing() {
    portsWith("", 1);
    PushBatchShare shares = new PushBatchShare(ports, ports);
    PushBatchShare.OpenSession older = shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 0);
    PushBatchShare.OpenSession newer = shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 0);
    assertTrue(newer.epoch() > older.epoch());
    PushBatchShare.Share share = shares.start(older, 0, 100, END, Duration.ofSeconds(30));
    ProducerFencedException e =
        assertThrows(ProducerFencedException.class, () -> shares.finish(share, rows(3)));
    assertTrue(
        e.getMessage().contains("after this attempt got epoch " + older.epoch())
            && e.getMessage().contains("none of its rows landed"),
        e.getMessage());
    assertEquals(0, outputRows(), "PARTIAL_WRITE: a fenced attempt's rows are visible");
    noTransactionLeftOpen();
    // The newer attempt writes the share, once.
    BatchShareOutcome outcome =
        shares.finish(shares.start(newer, 0, 100, END, Duration.ofSeconds(30)), rows(3));
    assertEquals(3, outcome.writtenRowCount());
    assertEquals(3, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aTransactionThatExpiresBetweenChunksFailsTheTaskNamingItsTimeout() {
    portsWith("", 1);
    ProducerTaskWriter w = writer(0, 1, 2, 100, END, Duration.ofSeconds(1));
    write(w, 4); // the first chunks are pushed
    cluster.advanceClock(5_000);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, () -> write(w, 2));
    assertTrue(e.getMessage().contains("(timeout 1000 ms) expired"), e.getMessage());
    assertEquals(0, outputRows(), "PARTIAL_WRITE: an expired share's rows are visible");
  }

  @Test
  void aReplayOfACommittedShareWritesNothingAndCountsItsRowsAsSkipped() {
    portsWith("", 1);
    ProducerTaskWriter first = writer(4, 2, 100);
    write(first, 5);
    first.commit().orElseThrow();
    ProducerTaskWriter replay = writer(4, 2, 100);
    write(replay, 5);
    BatchShareOutcome outcome = replay.commit().orElseThrow();
    assertEquals(BatchShareDecision.Action.ALREADY_PUSHED, outcome.decision().action());
    assertEquals(5, outcome.skippedRowCount());
    assertEquals(0, outcome.writtenRowCount());
    assertTrue(outcome.pushed().isEmpty(), "nothing pushed again");
    assertEquals(5, outputRows(), "DUPLICATE_WRITE");
    // A replay with other rows is told, and still writes nothing.
    ProducerTaskWriter changed = writer(4, 2, 100);
    write(changed, 3);
    assertEquals(
        BatchShareDecision.Action.OUTPUT_CHANGED,
        changed.commit().orElseThrow().decision().action());
    assertEquals(5, outputRows(), "DUPLICATE_WRITE");
  }

  @Test
  void aReplayOverAnotherSourceRangeIsRefusedNamingBothEnds() {
    portsWith("", 1);
    ProducerTaskWriter first = writer(4, 2, 100);
    write(first, 2);
    first.commit().orElseThrow();
    Optional<StreamOffsets> other = Optional.of(StreamOffsets.of(Map.of(SOURCE, 12L)));
    ProducerTaskWriter replay = writer(4, 1, 2, 100, other, Duration.ofSeconds(30));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> write(replay, 2));
    assertTrue(
        e.getMessage().contains("10")
            && e.getMessage().contains("12")
            && e.getMessage().contains("Start the query on a new checkpoint location"),
        e.getMessage());
    assertEquals(2, outputRows());
    // Without the source's ends on either side there is nothing to compare: a replay is skipped.
    ProducerTaskWriter unknown = writer(4, 1, 2, 100, Optional.empty(), Duration.ofSeconds(30));
    write(unknown, 2);
    assertEquals(
        BatchShareDecision.Action.ALREADY_PUSHED,
        unknown.commit().orElseThrow().decision().action());
  }

  @Test
  void anEmptyShareOpensNothing() {
    portsWith("", 1);
    ProducerTaskWriter w = writer(0, 2, 100);
    assertTrue(w.commit().isEmpty());
    w.abort();
    assertTrue(w.session().isEmpty());
    assertEquals(List.of(), cluster.producerSessions(Workload.PRODUCER));
    assertEquals(0, ports.startedCount());
  }

  @Test
  void aShareAlreadyEndedRefusesMoreRows() {
    portsWith("", 1);
    PushBatchShare shares = new PushBatchShare(ports, ports);
    PushBatchShare.OpenSession s = shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 0);
    PushBatchShare.Share share = shares.start(s, 0, 100, END, Duration.ofSeconds(30));
    List<Row> rows = rows(1);
    shares.finish(share, rows);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> shares.pushChunk(share, rows));
    assertTrue(e.getMessage().contains("has ended"), e.getMessage());
    shares.abort(share);
    shares.abort(share);
    assertEquals(1, outputRows());
  }

  @Test
  void aFailedTaskAbortsItsShareAndNothingOfItLands() {
    portsWith("", 1);
    ProducerTaskWriter w = writer(1, 2, 100);
    write(w, 5);
    assertEquals(2, w.chunksPushed(), "the first two chunks went out");
    assertTrue(w.session().isPresent(), "the first chunk opened the session");
    assertArrayEquals(new long[] {5}, w.rowsPerTablet());
    w.abort();
    w.abort(); // Spark may call it again
    noTransactionLeftOpen();
    assertEquals(0, outputRows(), "PARTIAL_WRITE: an aborted attempt's chunks are visible");
  }

  @Test
  void aPushLostOnEveryAttemptAbortsTheShareItselfAndKeepsEachError() {
    // The push into the share's transaction is lost three times (its attempts): the share's own
    // transaction is aborted before the error reaches the task, whether or not Spark aborts it.
    portsWith("PUSH_REQUEST_LOST@0:0,PUSH_REQUEST_LOST@1:0,PUSH_REQUEST_LOST@2:0", 1);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    RuntimeException e = assertThrows(RuntimeException.class, w::commit);
    assertEquals(1, e.getSuppressed().length, "the earlier attempts ride along");
    assertEquals(1, e.getSuppressed()[0].getSuppressed().length);
    noTransactionLeftOpen();
    assertEquals(0, outputRows());
  }

  @Test
  void aCommitTheClusterRefusesForItsOwnTabletLimitFailsAtOnceAndLandsNothing() {
    portsWith("", 1);
    cluster.setMaxRowsPerTabletTransaction(2);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    BatchShareNotCommittedException e =
        assertThrows(BatchShareNotCommittedException.class, w::commit);
    assertTrue(e.getMessage().contains("did not land: its commit failed."), e.getMessage());
    noTransactionLeftOpen();
    assertEquals(0, outputRows());
  }

  @Test
  void aShareThroughTheUseCaseReportsWhatItPushed() {
    portsWith("", 1);
    PushBatchShare shares = new PushBatchShare(ports, ports);
    PushBatchShare.OpenSession s = shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 3);
    PushBatchShare.Share share = shares.start(s, 7, 100, END, Duration.ofSeconds(30));
    assertSame(s, share.session());
    assertEquals(7, share.batchId());
    assertTrue(share.pushesRows());
    shares.pushChunk(share, rows(3));
    assertEquals(3, share.rowCount());
    assertEquals(2, share.pushedRowCount(), "the last row is held back for the last push");
    BatchShareOutcome outcome = shares.finish(share, rows(0));
    assertEquals(3, outcome.rowCount());
    assertEquals(3, outcome.writtenRowCount());
    assertThrows(IllegalStateException.class, () -> shares.finish(share, rows(1)));
    PushBatchShare.Share replay =
        shares.start(
            shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 3),
            7,
            100,
            END,
            Duration.ofSeconds(30));
    assertFalse(replay.pushesRows(), "the session holds batch 7");
    BatchShareOutcome once =
        shares.push(
            shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY, 3), 8, rows(2), 100, END);
    assertEquals(2, once.writtenRowCount());
    assertEquals(5, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aPushWhoseAnswerWasLostInsideTheShareIsNotCountedAsSkipped() {
    // The push lands in the share's transaction and its answer is lost; the repeat is skipped as a
    // copy of it. Every row of the share landed, and the outcome must say so.
    portsWith("COMMIT_UNKNOWN@0:0", 1);
    ProducerTaskWriter w = writer(0, 10, 100);
    write(w, 3);
    BatchShareOutcome outcome = w.commit().orElseThrow();
    assertEquals(1, faults.fired(SimFault.COMMIT_UNKNOWN));
    assertEquals(3, outputRows());
    assertEquals(3, outcome.writtenRowCount(), "the report counts what landed");
    assertEquals(0, outcome.skippedRowCount());
  }
}
