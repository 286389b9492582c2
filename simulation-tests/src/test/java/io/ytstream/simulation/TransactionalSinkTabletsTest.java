package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.BatchTooLargeException;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.OutputTarget;
import io.ytstream.application.WriterReport;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The transactional sink over outputs of several tablets, which the seeded runs do not have (their
 * output has one): the per-tablet row limit of one transaction holds in each tablet of an ordered
 * output, whose writers count rows per tablet, and over the whole of a sorted one, whose keys place
 * rows on tablets the writers do not know. A batch over the limit is refused by the sink itself,
 * before anything reaches the cluster (the refusal has no cluster error as its cause); one within
 * it commits. Each runs the shipped {@link CommitTransactionalSink} over the simulation's in-memory
 * cluster and checkpoint files.
 */
class TransactionalSinkTabletsTest {

  private static final QueueId QUEUE = QueueId.of("primary", "//sim/queue0");
  private static final PartitionId PARTITION = new PartitionId(QUEUE, 0);
  private static final long BATCH_ROWS = 20;
  private static final long PER_TABLET = 4;
  private static final int TABLETS = 3;
  private static final YPath ORDERED = YPath.of("//sim/ordered");
  private static final YPath SORTED = YPath.of("//sim/sorted");

  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private final TreeMap<String, byte[]> files = new TreeMap<>();
  private final QueryCheckpoint checkpoint;

  TransactionalSinkTabletsTest() {
    cluster.createQueue(QUEUE, 1);
    cluster.createConsumer(Workload.CONSUMER, List.of(QUEUE));
    List<Row> input = new ArrayList<>();
    for (long r = 0; r < BATCH_ROWS; r++) {
      input.add(Row.of("q", 0L, "k", r, "v", r));
    }
    cluster.append(QUEUE, 0, input);
    cluster.createOutputQueue(ORDERED, List.of("p", "r", "i", "v"), TABLETS);
    cluster.createSortedTable(SORTED, List.of("k"), List.of("v"));
    files.put(
        "sources/0/" + SourceRecord.FILE,
        new SourceRecord(Workload.CONSUMER, StreamOffsets.of(Map.of(PARTITION, 0L)))
            .serialize()
            .getBytes(StandardCharsets.UTF_8));
    logBatch(0, BATCH_ROWS);
    checkpoint = new QueryCheckpoint(new MemoryCheckpointFiles(files, "yt://sim/tablets"));
  }

  /** Writes {@code offsets/N} with the partition's end. */
  private void logBatch(long batch, long end) {
    files.put(
        "offsets/" + batch,
        ("v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}\n"
                + OffsetsJson.write(StreamOffsets.of(Map.of(PARTITION, end))))
            .getBytes(StandardCharsets.UTF_8));
  }

  private CommitTransactionalSink sink(YPath output, boolean sorted) {
    return new CommitTransactionalSink(
        cluster.ports().consumerOffsets(),
        cluster.ports().transactions(),
        Duration.ofSeconds(30),
        checkpoint,
        new OutputTarget(output, sorted, TABLETS),
        PER_TABLET);
  }

  /** Inserts {@code perTablet[t]} rows into tablet t of the ordered output; the writer's report. */
  private static WriterReport writeOrdered(TabletTransaction tx, long... perTablet) {
    List<Row> rows = new ArrayList<>();
    for (int t = 0; t < perTablet.length; t++) {
      for (long r = 0; r < perTablet[t]; r++) {
        rows.add(Row.of("$tablet_index", (long) t, "p", 0L, "r", r, "i", (long) t, "v", r));
      }
    }
    tx.insertRows(ORDERED, rows);
    return new WriterReport(0, tx.id().value(), perTablet, null);
  }

  /** Inserts {@code n} keyed rows into the sorted output; the writer's report (one counter). */
  private static WriterReport writeSorted(TabletTransaction tx, long n) {
    List<Row> rows = new ArrayList<>();
    for (long k = 0; k < n; k++) {
      rows.add(Row.of("k", k, "v", k));
    }
    tx.insertRows(SORTED, rows);
    return new WriterReport(0, tx.id().value(), new long[] {n}, null);
  }

  private long consumer() {
    return cluster
        .ports()
        .consumerOffsets()
        .read(Workload.CONSUMER, QUEUE)
        .getOrDefault(PARTITION, 0);
  }

  @Test
  void anOrderedOutputTakesTheLimitInEveryTablet() {
    cluster.setMaxRowsPerTabletTransaction(PER_TABLET);
    CommitTransactionalSink sink = sink(ORDERED, false);
    TabletTransaction tx = sink.openBatch();
    WriterReport report = writeOrdered(tx, PER_TABLET, PER_TABLET, PER_TABLET);

    assertEquals(CommitTransactionalSink.Result.COMMITTED, sink.commit(0, tx, List.of(report)));
    assertEquals(BATCH_ROWS, consumer());
    assertEquals(PER_TABLET * TABLETS, cluster.ports().outputTables().readAll(ORDERED).size());
  }

  @Test
  void anOrderedOutputRefusesOneTabletOverTheLimitBeforeTheCommit() {
    cluster.setMaxRowsPerTabletTransaction(PER_TABLET);
    CommitTransactionalSink sink = sink(ORDERED, false);
    TabletTransaction tx = sink.openBatch();
    // Two writers, each within the limit in every tablet, together over it in the middle one.
    WriterReport one = writeOrdered(tx, 1, PER_TABLET - 1, 0);
    WriterReport two = writeOrdered(tx, 0, 2, 1);

    BatchTooLargeException e =
        assertThrows(BatchTooLargeException.class, () -> sink.commit(0, tx, List.of(one, two)));

    assertNull(e.getCause(), "refused by the sink's own count, not by the cluster: " + e);
    assertTrue(
        e.getMessage().contains((PER_TABLET + 1) + " of them into one tablet"), e::getMessage);
    assertNothingWritten(tx, ORDERED);
  }

  @Test
  void aSortedOutputTakesTheLimitTimesItsTablets() {
    // The keys, not the writers, place a sorted output's rows: the sink can only bound the whole.
    cluster.setMaxRowsPerTabletTransaction(PER_TABLET * TABLETS);
    CommitTransactionalSink sink = sink(SORTED, true);
    TabletTransaction tx = sink.openBatch();
    WriterReport report = writeSorted(tx, PER_TABLET * TABLETS);

    assertEquals(CommitTransactionalSink.Result.COMMITTED, sink.commit(0, tx, List.of(report)));
    assertEquals(BATCH_ROWS, consumer());
    assertEquals(PER_TABLET * TABLETS, cluster.ports().outputTables().readAll(SORTED).size());
  }

  @Test
  void aSortedOutputRefusesMoreThanTheLimitTimesItsTabletsBeforeTheCommit() {
    // Two rows written per row read (a flat map): 40 rows, where the output takes 12.
    long rows = 2 * BATCH_ROWS;
    cluster.setMaxRowsPerTabletTransaction(rows);
    CommitTransactionalSink sink = sink(SORTED, true);
    TabletTransaction tx = sink.openBatch();
    WriterReport report = writeSorted(tx, rows);

    BatchTooLargeException e =
        assertThrows(BatchTooLargeException.class, () -> sink.commit(0, tx, List.of(report)));

    assertNull(e.getCause(), "refused by the sink's own count, not by the cluster: " + e);
    // 40 rows at 4 per tablet need 10 tablets; 12 rows from the one partition read fit.
    assertTrue(e.getMessage().contains("needs at least 10 tablets (it has 3)"), e::getMessage);
    assertTrue(e.getMessage().contains("max_rows_per_partition=12 fits"), e::getMessage);
    assertTrue(e.getMessage().contains("read up to 20 rows from each of 1 queue"), e::getMessage);
    assertTrue(
        e.getMessage().contains("Batch 0's range is already in the checkpoint's offset log")
            && e.getMessage().endsWith("for this one, reshard the output."),
        e::getMessage);
    assertNothingWritten(tx, SORTED);
  }

  @Test
  void aTaskWithoutMemoryForItsRowsFailsTheBatchWithAMaxRowsPerPartitionThatIsSmaller() {
    CommitTransactionalSink sink = sink(ORDERED, false);
    TabletTransaction tx = sink.openBatch();
    WriterReport kept = writeOrdered(tx, 1, 1, 0);
    WriterReport notKept =
        new WriterReport(0, tx.id().value(), new long[] {1, 0, 1}, "partition 1 ran out");

    BatchTooLargeException e =
        assertThrows(
            BatchTooLargeException.class, () -> sink.commit(0, tx, List.of(kept, notKept)));

    assertTrue(e.getMessage().contains("for the executors' memory"), e::getMessage);
    assertTrue(e.getMessage().contains("partition 1 ran out"), e::getMessage);
    assertTrue(e.getMessage().contains("(now at least 20; try 5)"), e::getMessage);
    assertTrue(
        e.getMessage().contains("runs it again with the same rows")
            && e.getMessage()
                .endsWith(
                    "for this one, give executors more memory, or set option"
                        + " max_rows_per_task to run it in smaller tasks."),
        e::getMessage);
    assertNothingWritten(tx, ORDERED);
  }

  @Test
  void aBatchOfTwoRowsWithoutMemoryIsToldToReadOneRowAPartition() {
    cluster.append(
        QUEUE,
        0,
        List.of(Row.of("q", 0L, "k", 20L, "v", 20L), Row.of("q", 0L, "k", 21L, "v", 21L)));
    logBatch(1, BATCH_ROWS + 2);
    CommitTransactionalSink sink = sink(ORDERED, false);
    TabletTransaction tx = sink.openBatch();
    WriterReport notKept = new WriterReport(1, tx.id().value(), new long[] {1, 1, 0}, "no room");

    BatchTooLargeException e =
        assertThrows(BatchTooLargeException.class, () -> sink.commit(1, tx, List.of(notKept)));

    assertTrue(e.getMessage().contains("(now at least 2; try 1)"), e::getMessage);
    assertFalse(cluster.transactionLive(tx.id()), "the batch transaction is aborted");
  }

  @Test
  void aClusterWithALowerLimitThanTheSettingRefusesTheCommitAndTheSinkNamesTheSetting() {
    // The query was told PER_TABLET; the cluster takes one row fewer in a tablet.
    cluster.setMaxRowsPerTabletTransaction(PER_TABLET - 1);
    CommitTransactionalSink sink = sink(ORDERED, false);
    TabletTransaction tx = sink.openBatch();
    WriterReport report = writeOrdered(tx, PER_TABLET, 1, 0);

    BatchTooLargeException e =
        assertThrows(BatchTooLargeException.class, () -> sink.commit(0, tx, List.of(report)));

    assertTrue(e.getCause() != null, "refused by the cluster, whose error is the cause: " + e);
    String m = e.getMessage();
    assertTrue(m.contains(PER_TABLET + " of them into one tablet,"), m);
    assertTrue(m.contains("told it allows " + PER_TABLET + " rows per tablet"), m);
    assertTrue(
        m.contains(
            "Set spark.yt.write.maxRowsPerTabletPerTransaction to the cluster's limit (at most "
                + (PER_TABLET - 1)
                + ", since "
                + PER_TABLET
                + " were refused)"),
        m);
    assertTrue(m.endsWith("for this one, reshard the output."), m);
    assertNothingWritten(tx, ORDERED);
  }

  private void assertNothingWritten(TabletTransaction tx, YPath output) {
    assertFalse(cluster.transactionLive(tx.id()), "the batch transaction is aborted");
    assertEquals(0, consumer());
    assertEquals(0, cluster.ports().outputTables().readAll(output).size());
  }
}
