package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.UntrustedPositionsException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The real-time use cases and the recovery at restart over adapter-inmemory's cluster. */
class RealTimeUseCasesTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  /** Counts the bounds reads that reach the cluster. */
  private final AtomicInteger boundsReads = new AtomicInteger();

  /** The queue as a read finds it after it was dropped and created again, empty. */
  private boolean emptyBounds;

  private final List<StreamOffsets> consumerMoves = new ArrayList<>();

  private void queue(int partitions, int rowsEach) {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), partitions);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    for (int p = 0; p < partitions; p++) {
      append(p, rowsEach);
    }
  }

  private void append(int partition, int rows) {
    List<Row> out = new ArrayList<>();
    for (long v = 0; v < rows; v++) {
      out.add(Row.of("v", v));
    }
    cluster.appendToTablet(QUEUE, partition, out);
  }

  private PlanMicroBatch planner() {
    QueueMetadata counted =
        queue -> {
          boundsReads.incrementAndGet();
          return emptyBounds
              ? List.of(new PartitionBounds(0, 0, 0))
              : cluster.queueMetadata().partitions(queue);
        };
    return new PlanMicroBatch(
        counted, CONSUMER, List.of(Q), PlanLimits.of(100, DataLossPolicy.FAIL));
  }

  private AdvanceConsumer advancer() {
    return new AdvanceConsumer(cluster.consumerOffsets(), CONSUMER, List.of(Q));
  }

  private RealTimeBatchBoundary boundary(Optional<QueueBounds> readAhead) {
    return new RealTimeBatchBoundary(planner(), advancer(), () -> readAhead, consumerMoves::add);
  }

  private ReadRealTimePartition reader(
      long start, List<QueueRow> carried, DataLossPolicy policy, LostRows lost) {
    return new ReadRealTimePartition(
        cluster.queueReader(), CONSUMER, P0, start, carried, 3, policy, lost);
  }

  private static List<Long> indexes(List<QueueRow> rows) {
    return rows.stream().map(QueueRow::rowIndex).toList();
  }

  private static List<QueueRow> drain(ReadRealTimePartition read) {
    List<QueueRow> out = new ArrayList<>();
    for (QueueRow r = read.poll(); r != null; r = read.poll()) {
      out.add(r);
    }
    return out;
  }

  @Test
  void aRealTimeTaskReadsRowsAsTheyComeAndAnEmptyPullIsNoNews() {
    queue(1, 2);
    ReadRealTimePartition read = reader(0, List.of(), DataLossPolicy.FAIL, loss -> {});
    assertEquals(2, read.pull());
    assertEquals(List.of(0L, 1L), indexes(drain(read)));
    assertEquals(0, read.pull(), "nothing new yet");
    assertEquals(2, read.next());
    append(0, 4);
    assertEquals(3, read.pull(), "at most pullRows rows per pull");
    assertEquals(List.of(2L, 3L, 4L), indexes(drain(read)));
    assertEquals(1, read.pull());
    assertEquals(List.of(5L), indexes(drain(read)));
    assertEquals(6, read.next());
  }

  @Test
  void rowsTrimmedBeforeARealTimeTaskReadThemFailItOrAreReportedAndSkipped() {
    queue(1, 10);
    cluster.trimRows(QUEUE, 0, 4);
    ReadRealTimePartition failing = reader(1, List.of(), DataLossPolicy.FAIL, loss -> {});
    DataLossException e = assertThrows(DataLossException.class, failing::pull);
    assertEquals(List.of(new DataLoss(P0, 1, 4)), e.losses());

    List<DataLoss> reported = new ArrayList<>();
    ReadRealTimePartition skipping =
        reader(1, List.of(), DataLossPolicy.SKIP_AND_REPORT, reported::add);
    assertEquals(3, skipping.pull());
    assertEquals(List.of(4L, 5L, 6L), indexes(drain(skipping)));
    assertEquals(List.of(new DataLoss(P0, 1, 4)), reported);
    assertEquals(7, skipping.next());
  }

  @Test
  void rowsAPredecessorLeftServeOnlyATaskThatStartsWhereTheyBegin() {
    queue(1, 6);
    ReadRealTimePartition first = reader(0, List.of(), DataLossPolicy.FAIL, loss -> {});
    first.pull();
    assertEquals(0, first.poll().rowIndex());
    List<QueueRow> left = first.unread();
    assertEquals(List.of(1L, 2L), indexes(left));
    assertEquals(1, first.next(), "the batch ends before the rows it did not hand out");

    // The rows are trimmed after they were pulled: the next task still delivers them.
    cluster.trimRows(QUEUE, 0, 3);
    ReadRealTimePartition next = reader(1, left, DataLossPolicy.FAIL, loss -> {});
    assertTrue(next.hasBuffered());
    assertEquals(List.of(1L, 2L), indexes(drain(next)));
    next.pull();
    assertEquals(List.of(3L, 4L, 5L), indexes(drain(next)));

    ReadRealTimePartition elsewhere = reader(2, left, DataLossPolicy.FAIL, loss -> {});
    assertNull(elsewhere.poll(), "rows that begin elsewhere are not used");
    assertThrows(DataLossException.class, elsewhere::pull, "index 2 is trimmed by now");
  }

  @Test
  void aPullWhileRowsWaitIsRefused() {
    queue(1, 6);
    ReadRealTimePartition read = reader(0, List.of(), DataLossPolicy.FAIL, loss -> {});
    read.pull();
    assertThrows(IllegalStateException.class, read::pull);
  }

  @Test
  void theBatchEndIsTheFurthestEachTaskReachedOverTheStart() {
    queue(2, 10);
    RealTimeBatchBoundary boundary = boundary(Optional.empty());
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 2L, P1, 5L));
    RealTimeBatchBoundary.Tasks tasks = boundary.tasks(start);
    assertEquals(Map.of(P0, 2L, P1, 5L), tasks.starts());
    StreamOffsets end =
        boundary.merge(
            List.of(
                new RealTimeBatchBoundary.TaskEnd(P0, 6),
                new RealTimeBatchBoundary.TaskEnd(P0, 7),
                new RealTimeBatchBoundary.TaskEnd(P0, 4)));
    assertEquals(StreamOffsets.of(Map.of(P0, 7L, P1, 5L)), end, "P1 reported nothing");
  }

  @Test
  void aBoundaryAtTheEndItMergedPlansWithTheBoundsReadAheadRaisedToThatEnd() {
    queue(1, 10);
    PartitionBounds stale = new PartitionBounds(0, 0, 5);
    QueueBounds readAhead = QueueBounds.of(Map.of(Q, List.of(stale)));
    RealTimeBatchBoundary boundary = boundary(Optional.of(readAhead));
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));

    boundary.atLatestOffset(start);
    assertEquals(1, boundsReads.get(), "the first boundary of a run reads in line");
    boundary.tasks(start);
    assertEquals(1, boundsReads.get(), "planning reuses the bounds of latestOffset");
    StreamOffsets end = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 8)));

    RealTimeBatchBoundary.Planning next = boundary.atLatestOffset(end);
    RealTimeBatchBoundary.Tasks tasks = boundary.tasks(end);
    assertEquals(1, boundsReads.get(), "no request in line at the boundary");
    assertEquals(8, next.bounds().get(P0).totalRowCount(), "raised to where the tasks got");
    assertEquals(Map.of(P0, 8L), tasks.starts());
    assertEquals(StreamOffsets.empty(), next.consumer(), "no partition to place: not read");

    boundary.atLatestOffset(StreamOffsets.of(Map.of(P0, 3L)));
    assertEquals(2, boundsReads.get(), "a start it did not merge is checked in line");
  }

  @Test
  void aThirdReadAheadBelowTheStartIsNotRaisedButReadAgainInLine() {
    queue(1, 10);
    AtomicReference<QueueBounds> readAhead = new AtomicReference<>();
    RealTimeBatchBoundary boundary =
        new RealTimeBatchBoundary(
            planner(), advancer(), () -> Optional.ofNullable(readAhead.get()), consumerMoves::add);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    boundary.atLatestOffset(start);
    boundary.tasks(start);
    StreamOffsets end = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 8)));
    assertEquals(1, boundsReads.get());

    // Reads ahead, each a new one, all below where the tasks got (as from a re-created queue).
    readAhead.set(QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 2)))));
    boundary.atLatestOffset(end);
    boundary.atLatestOffset(end);
    readAhead.set(QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 2)))));
    boundary.atLatestOffset(end);
    assertEquals(1, boundsReads.get(), "two reads may be older than the tasks' last rows: raised");
    readAhead.set(QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 2)))));
    RealTimeBatchBoundary.Planning third = boundary.atLatestOffset(end);
    assertEquals(2, boundsReads.get(), "the third began after them: read again in line");
    assertEquals(10, third.bounds().get(P0).totalRowCount(), "the queue's own bounds");

    readAhead.set(QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 9)))));
    boundary.atLatestOffset(end);
    assertEquals(2, boundsReads.get(), "a read ahead past the start needs no raise");
  }

  @Test
  void aBoundaryRefusesAQueueReCreatedUnderTheBoundsReadAhead() {
    queue(1, 10);
    AtomicReference<QueueBounds> readAhead = new AtomicReference<>();
    RealTimeBatchBoundary boundary =
        new RealTimeBatchBoundary(
            planner(), advancer(), () -> Optional.ofNullable(readAhead.get()), consumerMoves::add);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    boundary.atLatestOffset(start);
    boundary.tasks(start);
    StreamOffsets end = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 8)));
    consumerMoves.clear();
    // Every later read, in line or ahead, sees an empty queue: re-created.
    emptyBounds = true;
    for (int read = 0; read < 3; read++) {
      readAhead.set(QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 0)))));
      if (read < 2) {
        boundary.atLatestOffset(end);
      }
    }
    assertThrows(UntrustedPositionsException.class, () -> boundary.atLatestOffset(end));
    assertEquals(List.of(), consumerMoves, "no boundary moves it, the refused one neither");
  }

  @Test
  void theConsumerFollowsOnlyTheEndsSparkCommits() {
    queue(1, 10);
    RealTimeBatchBoundary boundary = boundary(Optional.empty());
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    boundary.atLatestOffset(start);
    boundary.tasks(start);
    StreamOffsets end = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 4)));
    assertEquals(List.of(), consumerMoves, "a merged end is not durable yet");
    boundary.atLatestOffset(end);
    assertEquals(List.of(), consumerMoves, "nor is a start, with asynchronous progress tracking");
    boundary.committed(end);
    assertEquals(List.of(end), consumerMoves);
  }

  /**
   * Spark 4.3's asynchronous progress tracking (its default for a stateless real-time query): the
   * next batch starts while the previous one's {@code offsets/N} and {@code commits/N} are still
   * being written, and {@code commit} gets an end once a later batch's offsets are on storage, so
   * the end of batch N comes to {@code commit} after {@code latestOffset} from the end of N + 1.
   */
  @Test
  void aCommitThatComesAfterLaterBoundariesMovesTheConsumerUnfenced() {
    queue(1, 10);
    AdvanceConsumer advancer = advancer();
    RealTimeBatchBoundary boundary =
        new RealTimeBatchBoundary(planner(), advancer, Optional::empty, advancer::bringLevel);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    boundary.atLatestOffset(start);
    boundary.tasks(start);
    StreamOffsets end0 = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 3)));
    boundary.atLatestOffset(end0);
    boundary.tasks(end0);
    StreamOffsets end1 = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 6)));
    boundary.atLatestOffset(end1);
    assertEquals(0L, advancer.read().getOrDefault(P0, 0), "no end is durable yet");

    boundary.committed(end0);
    assertEquals(end0, advancer.read(), "at the durable end, not past it where a restart resumes");
    boundary.tasks(end1);
    StreamOffsets end2 = boundary.merge(List.of(new RealTimeBatchBoundary.TaskEnd(P0, 9)));
    boundary.atLatestOffset(end2);
    boundary.committed(end1);
    assertEquals(end1, advancer.read());
  }

  @Test
  void aPartitionAddedByAReshardStartsWhereTheConsumerPlacesIt() {
    queue(1, 10);
    cluster.consumerOffsets().advance(CONSUMER, P1, OptionalLong.empty(), 0);
    cluster.reshard(QUEUE, 2);
    append(1, 3);
    RealTimeBatchBoundary boundary = boundary(Optional.empty());
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 6L));
    RealTimeBatchBoundary.Planning planning = boundary.atLatestOffset(start);
    assertEquals(0L, planning.consumer().getOrDefault(P1, -1), "read: a partition is to be placed");
    assertEquals(Map.of(P0, 6L, P1, 0L), boundary.tasks(start).starts());
  }

  @Test
  void aRestartResumesFromTheCheckpointAndANewCheckpointFromTheConsumer() {
    queue(2, 10);
    AdvanceConsumer advancer = advancer();
    advancer.bringLevel(StreamOffsets.of(Map.of(P0, 3L, P1, 0L)));
    ResumeOrStartQuery resume =
        new ResumeOrStartQuery(
            planner(), advancer, CONSUMER, new FindOffsetByTimestamp(cluster.queueRangeReader()));

    StreamOffsets fresh = resume.initialOffsets(Optional.empty(), Optional.empty(), "yt:/ckpt");
    assertEquals(StreamOffsets.of(Map.of(P0, 3L, P1, 0L)), fresh);

    StreamOffsets recorded = StreamOffsets.of(Map.of(P0, 1L, P1, 0L));
    assertEquals(
        recorded,
        resume.initialOffsets(
            Optional.of(new ResumeOrStartQuery.Recorded(CONSUMER, recorded)),
            Optional.empty(),
            "yt:/ckpt"),
        "the checkpoint wins over the consumer");

    ConsumerId other = ConsumerId.of("primary", "//other");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                resume.initialOffsets(
                    Optional.of(new ResumeOrStartQuery.Recorded(other, recorded)),
                    Optional.empty(),
                    "yt:/ckpt"));
    assertTrue(e.getMessage().contains("consumer_path") && e.getMessage().contains("yt:/ckpt"));
  }
}
