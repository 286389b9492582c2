package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.BatchShareDecision.Action;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The task writers an engine's DataWriter drives a row at a time ({@link ChunkedTaskWriter}, {@link
 * ProducerTaskWriter}), over the in-memory cluster: which tablet each row goes to, when chunks go
 * out, what a commit and an abort leave behind.
 */
class TaskWritersTest {

  private static final YPath TABLE = YPath.of("//ordered");
  private static final YPath SORTED = YPath.of("//sorted");
  private static final YPath QUEUE = YPath.of("//out");
  private static final YPath PRODUCER = YPath.of("//producer");
  private static final int TABLETS = 3;
  private static final Optional<StreamOffsets> END =
      Optional.of(StreamOffsets.ofQueue(QueueId.of("primary", "//in"), Map.of(0, 7L)));

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final WriteChunk chunks = new WriteChunk(cluster.outputTables(), (a, o, e) -> {});

  private static RowAtTablet value(long v) {
    return tablet -> Row.of("$tablet_index", (long) tablet, "v", v);
  }

  private List<Long> values(YPath table, int tablet) {
    List<Long> values = new ArrayList<>();
    cluster.rows(table, tablet, 0).forEach(r -> values.add((Long) r.get("v")));
    return values;
  }

  @Test
  void chunkedRowsGoRoundTheTabletsFromTheTaskPartitionAndEachFullChunkGoesOutAtOnce() {
    cluster.createOrderedTable(TABLE, List.of(new Column("v", "int64", false, false)), TABLETS);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, TABLE, false, 1, TABLETS, 2);

    for (long v = 0; v < 5; v++) {
      writer.write(value(v));
    }
    assertEquals(2, writer.chunksWritten(), "two full chunks of two went out as they filled");
    assertEquals(List.of(2L), values(TABLE, 0), "row 2 of task 1 is in tablet (1 + 2) mod 3");
    writer.commit();

    assertEquals(3, writer.chunksWritten(), "the commit writes the partial chunk");
    assertEquals(List.of(0L, 3L), values(TABLE, 1), "row k of task 1 is in tablet (1 + k) mod 3");
    assertEquals(List.of(1L, 4L), values(TABLE, 2));
    assertArrayEquals(new long[] {1, 2, 2}, writer.rowsPerTablet());
  }

  @Test
  void anAbortDropsTheRowsNotYetWrittenAndKeepsTheChunksThatWent() {
    cluster.createOrderedTable(TABLE, List.of(new Column("v", "int64", false, false)), 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, TABLE, false, 0, 1, 2);
    for (long v = 0; v < 3; v++) {
      writer.write(value(v));
    }
    writer.abort();
    writer.commit();

    assertEquals(List.of(0L, 1L), values(TABLE, 0), "at-least-once: the first chunk stays");
  }

  @Test
  void aSortedOutputCountsItsRowsInOneCounterAndUpsertsByKey() {
    cluster.createSortedTable(
        SORTED,
        List.of(new Column("k", "int64", true, true), new Column("v", "int64", false, false)));
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, SORTED, true, 2, TABLETS, 10);
    List<Integer> tablets = new ArrayList<>();
    for (long k = 0; k < 3; k++) {
      long key = k;
      writer.write(
          tablet -> {
            tablets.add(tablet);
            return Row.of("k", key % 2, "v", key);
          });
    }
    writer.commit();

    assertEquals(List.of(0, 0, 0), tablets, "a sorted output's rows go by key, not by tablet");
    assertArrayEquals(new long[] {3}, writer.rowsPerTablet());
    assertEquals(2, cluster.rowsCommittedAfter(SORTED, 0).size(), "keys 0 and 1, upserted");
  }

  private ProducerTaskWriter producerWriter(AtomicInteger connects, int task, long batch) {
    return new ProducerTaskWriter(
        () -> {
          connects.incrementAndGet();
          return new PushBatchShare(cluster.queueProducers(), cluster.transactions());
        },
        new ProducerTaskWriter.Share(
            PRODUCER, QUEUE, "q", task, batch, TABLETS, 2, 100, END, Duration.ofSeconds(30)));
  }

  private void createQueue() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), TABLETS);
    cluster.createQueueProducer(PRODUCER);
  }

  @Test
  void aProducerShareLandsAtTheCommitAndItsReplayIsNotPushedAgain() {
    createQueue();
    AtomicInteger connects = new AtomicInteger();
    ProducerTaskWriter writer = producerWriter(connects, 0, 4);
    for (long v = 0; v < 5; v++) {
      writer.write(value(v));
    }
    assertEquals(2, writer.chunksPushed());
    assertEquals(List.of(), values(QUEUE, 0), "nothing is visible before the commit");

    BatchShareOutcome outcome = writer.commit().orElseThrow();

    assertEquals(Action.PUSH, outcome.decision().action());
    assertEquals(5, outcome.writtenRowCount());
    assertEquals(List.of(0L, 3L), values(QUEUE, 0), "row k of task 0 is in tablet k mod 3");
    assertArrayEquals(new long[] {2, 2, 1}, writer.rowsPerTablet());
    assertEquals(1, connects.get(), "connected once, at the first push");

    ProducerTaskWriter replay = producerWriter(connects, 0, 4);
    for (long v = 0; v < 5; v++) {
      replay.write(value(v));
    }
    BatchShareOutcome again = replay.commit().orElseThrow();
    assertEquals(Action.ALREADY_PUSHED, again.decision().action());
    assertEquals(List.of(0L, 3L), values(QUEUE, 0), "every row once");
    assertEquals(4, replay.session().orElseThrow().lastPushed().orElseThrow().batchId());
  }

  @Test
  void aProducerTaskWithoutRowsConnectsToNothingAndAnAbortedShareLeavesNothing() {
    createQueue();
    AtomicInteger connects = new AtomicInteger();
    ProducerTaskWriter empty = producerWriter(connects, 1, 0);
    assertTrue(empty.commit().isEmpty());
    assertEquals(0, connects.get());
    assertFalse(empty.session().isPresent());

    ProducerTaskWriter failed = producerWriter(connects, 1, 0);
    for (long v = 0; v < 3; v++) {
      failed.write(value(v));
    }
    failed.abort();
    failed.abort();
    for (int t = 0; t < TABLETS; t++) {
      assertEquals(List.of(), values(QUEUE, t));
    }
  }
}
