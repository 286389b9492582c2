package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link PushThroughProducerSession} over adapter-inmemory's cluster, one behaviour each. */
class PushThroughProducerSessionTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final ProducerSessionId SESSION =
      new ProducerSessionId(YPath.of("//p"), QUEUE, "query-1/partition-0");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final PushThroughProducerSession pushes =
      new PushThroughProducerSession(cluster.queueProducers());

  private long epoch() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "string", false, true)), 1);
    cluster.createQueueProducer(SESSION.producer());
    return cluster.queueProducers().createSession(SESSION).epoch();
  }

  private static List<Row> rows(String... values) {
    List<Row> rows = new ArrayList<>();
    for (String value : values) {
      rows.add(Row.of("v", value));
    }
    return rows;
  }

  private List<Object> queue() {
    List<Object> values = new ArrayList<>();
    cluster.rows(QUEUE, 0, 0).forEach(r -> values.add(r.get("v")));
    return values;
  }

  @Test
  void aFirstPushWritesEveryRow() {
    long epoch = epoch();

    ProducerPushOutcome outcome =
        pushes.push(SESSION, epoch, 100, rows("a", "b"), Optional.empty());

    assertEquals(ProducerPushOutcome.Kind.WRITTEN, outcome.kind());
    assertEquals(2, outcome.writtenRowCount());
    assertEquals(101, outcome.lastSequenceNumber());
    assertEquals(List.of("a", "b"), queue());
  }

  @Test
  void aReplayedBatchWritesNothingAndSaysSo() {
    long epoch = epoch();
    pushes.push(SESSION, epoch, 100, rows("a", "b"), Optional.empty());

    ProducerPushOutcome replay = pushes.push(SESSION, epoch, 100, rows("a", "b"), Optional.empty());

    assertEquals(ProducerPushOutcome.Kind.ALREADY_WRITTEN, replay.kind());
    assertEquals(0, replay.writtenRowCount());
    assertEquals(List.of("a", "b"), queue());
  }

  @Test
  void aLostAnswerIsSentAgainAndTheRepeatFindsTheRowsWritten() {
    long epoch = epoch();
    cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.PRODUCER_PUSH, 1);

    ProducerPushOutcome outcome =
        pushes.push(SESSION, epoch, 0, rows("a", "b", "c"), Optional.empty());

    assertEquals(ProducerPushOutcome.Kind.ALREADY_WRITTEN, outcome.kind());
    assertEquals(List.of("a", "b", "c"), queue());
  }

  @Test
  void aConflictBeforeApplyingIsSentAgainAndWrites() {
    long epoch = epoch();
    cluster
        .faults()
        .failNext(
            ClusterOperation.PRODUCER_PUSH, 1, YtErrorCode.TRANSACTION_LOCK_CONFLICT, "conflict");

    ProducerPushOutcome outcome = pushes.push(SESSION, epoch, 0, rows("a"), Optional.empty());

    assertEquals(
        1, cluster.faults().firedCount(ClusterOperation.PRODUCER_PUSH), "conflict injected");
    assertEquals(ProducerPushOutcome.Kind.WRITTEN, outcome.kind());
    assertEquals(List.of("a"), queue());
  }

  @Test
  void aZombieWriterIsFencedWritesNothingAndIsNotRetried() {
    long zombie = epoch();
    long current = cluster.queueProducers().createSession(SESSION).epoch();

    ProducerFencedException fenced =
        assertThrows(
            ProducerFencedException.class,
            () -> pushes.push(SESSION, zombie, 0, rows("a"), Optional.empty()));

    assertEquals(zombie + 1, current);
    assertTrue(
        ((YtException) fenced.getCause()).hasCode(QueueProducerErrors.ZOMBIE_EPOCH),
        fenced.toString());
    assertTrue(fenced.getMessage().contains("at epoch " + zombie), fenced.getMessage());
    assertEquals(List.of(), queue());
  }

  @Test
  void numbersReachingIntoAnEarlierPushAreReportedAsOverlapped() {
    long epoch = epoch();
    pushes.push(SESSION, epoch, 0, rows("a", "b", "c"), Optional.empty());

    ProducerPushOutcome outcome =
        pushes.push(SESSION, epoch, 2, rows("c", "d", "e"), Optional.empty());

    assertEquals(ProducerPushOutcome.Kind.OVERLAPPED, outcome.kind());
    assertEquals(1, outcome.skippedRowCount());
    assertEquals(List.of("a", "b", "c", "d", "e"), queue());
  }

  @Test
  void aPushThatCannotSucceedIsThrownAtOnce() {
    long epoch = epoch();
    // One failure only: a second attempt would succeed, so a retry would hide it.
    cluster
        .faults()
        .failNext(
            ClusterOperation.PRODUCER_PUSH,
            1,
            YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION,
            "too many rows");

    YtException error =
        assertThrows(
            YtException.class, () -> pushes.push(SESSION, epoch, 0, rows("a"), Optional.empty()));

    assertEquals(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION, error.code());
    assertEquals(List.of(), queue());
  }

  @Test
  void anInvalidEpochIsThrownAtOnce() {
    long epoch = epoch();

    YtException error =
        assertThrows(
            YtException.class,
            () -> pushes.push(SESSION, epoch + 1, 0, rows("a"), Optional.empty()));

    assertEquals(QueueProducerErrors.INVALID_EPOCH, error.code());
  }

  @Test
  void theUserMetaOfAPushIsWhatTheNextWriterFinds() {
    long epoch = epoch();

    pushes.push(SESSION, epoch, 10, rows("a"), Optional.of(Map.of("batch", 3L)));

    assertEquals(
        Optional.of(Map.of("batch", 3L)),
        cluster.queueProducers().createSession(SESSION).userMeta());
  }

  @Test
  void aNegativeBaseIsRefusedByName() {
    long epoch = epoch();

    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> pushes.push(SESSION, epoch, -1, rows("a"), Optional.empty()));

    assertTrue(error.getMessage().contains("base sequence number"), error.getMessage());
  }
}
