package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.CheckpointFiles;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Streaming into a static table over the in-memory cluster: each batch's rows exactly once. */
class StaticTableSinkTest {

  private static final YPath OUT = YPath.of("//out");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);
  private final MapFiles files = new MapFiles();

  StaticTableSinkTest() {
    cluster.createStaticTable(
        OUT,
        List.of(new Column("k", "int64", false, true), new Column("v", "string", false, false)));
  }

  /** A checkpoint's files in a sorted map. */
  private static final class MapFiles implements CheckpointFiles {
    final TreeMap<String, byte[]> files = new TreeMap<>();

    @Override
    public Optional<byte[]> read(String path) {
      return Optional.ofNullable(files.get(path));
    }

    @Override
    public List<String> list(String directory) {
      List<String> names = new ArrayList<>();
      for (String path : files.keySet()) {
        if (path.startsWith(directory + "/")) {
          names.add(path.substring(directory.length() + 1).split("/")[0]);
        }
      }
      return names;
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) {
      return files.putIfAbsent(path, content.clone()) == null;
    }

    @Override
    public String location() {
      return "yt:///ckpt";
    }
  }

  /** Spark writes {@code offsets/N} before it asks the sink for the batch's writers. */
  private void logBatch(long batchId, long end) {
    StreamOffsets offsets = StreamOffsets.of(Map.of(new PartitionId(Q, 0), end));
    files.files.put(
        "offsets/" + batchId, OffsetLogEntry.of(offsets).getBytes(StandardCharsets.UTF_8));
  }

  private CommitStaticTableSink sink(String queryId) {
    return new CommitStaticTableSink(
        cluster.staticTableAppends(), TIMEOUT, new QueryCheckpoint(files), OUT, queryId);
  }

  private StaticTableTaskWriter task(CommitStaticTableSink.OpenBatch batch, int chunkRows) {
    return new StaticTableTaskWriter(
        cluster.staticTableAppends(),
        batch.transaction().id(),
        batch.batchId(),
        batch.writes(),
        OUT,
        TIMEOUT,
        chunkRows,
        clock);
  }

  private static Row row(long k) {
    return Row.of("k", k, "v", "r" + k);
  }

  private static List<Long> keys(List<Row> rows) {
    List<Long> keys = new ArrayList<>();
    rows.forEach(r -> keys.add((Long) r.get("k")));
    return keys;
  }

  private List<Long> tableKeys() {
    return keys(cluster.staticTableAppends().readAll(OUT));
  }

  /** Runs batch {@code batchId} with one task per key list; returns the commit's result. */
  private CommitStaticTableSink.Result runBatch(
      CommitStaticTableSink sink, long batchId, List<List<Long>> tasks) {
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    List<StaticTableTaskReport> reports = new ArrayList<>();
    for (List<Long> task : tasks) {
      StaticTableTaskWriter writer = task(batch, 2);
      task.forEach(k -> writer.write(row(k)));
      reports.add(writer.commit());
    }
    return sink.commit(batchId, batch, reports);
  }

  @Test
  void aBatchLandsWithItsRecordAndEndOffsets() {
    logBatch(0, 5);
    CommitStaticTableSink sink = sink("query-a");

    assertEquals(
        CommitStaticTableSink.Result.COMMITTED,
        runBatch(sink, 0, List.of(List.of(1L, 2L, 3L), List.of(4L, 5L))));

    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), tableKeys());
    Map<?, ?> record =
        (Map<?, ?>)
            cluster
                .staticTableAppends()
                .attribute(OUT, StaticTableBatchRecord.ATTRIBUTE)
                .orElseThrow();
    Map<?, ?> entry = (Map<?, ?>) record.get("query-a");
    assertEquals(0L, ((Number) entry.get("batch")).longValue());
    assertTrue(String.valueOf(entry.get("end")).contains("5"), String.valueOf(entry));
  }

  @Test
  void aRerunOfARecordedBatchWritesNothingAndSucceeds() {
    logBatch(0, 5);
    runBatch(sink("q"), 0, List.of(List.of(1L, 2L)));

    // The driver died after the commit, before commits/0: the restart runs batch 0 again.
    CommitStaticTableSink restarted = sink("q");
    CommitStaticTableSink.OpenBatch again = restarted.openBatch();
    assertFalse(again.writes());
    StaticTableTaskWriter writer = task(again, 2);
    writer.write(row(1));
    writer.write(row(2));
    StaticTableTaskReport report = writer.commit();

    assertEquals(0, report.rows());
    assertEquals(
        CommitStaticTableSink.Result.ALREADY_APPLIED, restarted.commit(0, again, List.of(report)));
    assertEquals(List.of(1L, 2L), tableKeys());
  }

  @Test
  void anAbortedTaskAttemptLeavesNothingAndItsRetryLandsOnce() {
    logBatch(0, 4);
    CommitStaticTableSink sink = sink("q");
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    StaticTableTaskWriter failed = task(batch, 2);
    List.of(1L, 2L, 3L).forEach(k -> failed.write(row(k)));
    failed.abort();
    StaticTableTaskWriter retry = task(batch, 2);
    List.of(1L, 2L, 3L).forEach(k -> retry.write(row(k)));

    sink.commit(0, batch, List.of(retry.commit()));

    assertEquals(List.of(1L, 2L, 3L), tableKeys());
  }

  @Test
  void rowsAreAppendedChunkByChunkBeforeTheTaskCommits() {
    logBatch(0, 5);
    CommitStaticTableSink.OpenBatch batch = sink("q").openBatch();
    StaticTableTaskWriter writer = task(batch, 2);
    cluster.faults().failNext(ClusterOperation.STATIC_APPEND, 500);

    writer.write(row(1));
    // The second row fills the chunk of two: it is sent now, not kept for the commit.
    assertThrows(RuntimeException.class, () -> writer.write(row(2)));
  }

  @Test
  void aCommitWithoutAnAnswerThatLandedIsFoundInTheRecord() {
    logBatch(0, 2);
    CommitStaticTableSink sink = sink("q");
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    StaticTableTaskWriter writer = task(batch, 2);
    writer.write(row(1));
    StaticTableTaskReport report = writer.commit();
    cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.MASTER_COMMIT, 1);

    assertEquals(CommitStaticTableSink.Result.COMMITTED, sink.commit(0, batch, List.of(report)));
    assertEquals(List.of(1L), tableKeys());
  }

  @Test
  void aCommitWithoutAnAnswerThatDidNotLandFailsAndTheRestartWritesItOnce() {
    logBatch(0, 2);
    CommitStaticTableSink sink = sink("q");
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    StaticTableTaskWriter writer = task(batch, 2);
    writer.write(row(1));
    StaticTableTaskReport report = writer.commit();
    cluster.faults().unknownOutcomeWithoutApplying(ClusterOperation.MASTER_COMMIT, 1);

    BatchNotCommittedException e =
        assertThrows(
            BatchNotCommittedException.class, () -> sink.commit(0, batch, List.of(report)));
    assertEquals(CommitOutcome.UNKNOWN, e.outcome());
    assertEquals(List.of(), tableKeys());

    assertEquals(
        CommitStaticTableSink.Result.COMMITTED, runBatch(sink("q"), 0, List.of(List.of(1L))));
    assertEquals(List.of(1L), tableKeys());
  }

  @Test
  void twoQueriesKeepTheirOwnRecordsInOneTable() {
    logBatch(0, 1);
    runBatch(sink("a"), 0, List.of(List.of(1L)));
    runBatch(sink("b"), 0, List.of(List.of(2L)));
    logBatch(1, 2);
    runBatch(sink("a"), 1, List.of(List.of(3L)));

    assertEquals(List.of(1L, 2L, 3L), tableKeys());
    StaticTableBatchRecord record =
        StaticTableBatchRecord.of(
            cluster.staticTableAppends().attribute(OUT, StaticTableBatchRecord.ATTRIBUTE), "//out");
    assertEquals(1L, record.lastBatch("a", "//out").getAsLong());
    assertEquals(0L, record.lastBatch("b", "//out").getAsLong());
  }

  @Test
  void aBatchBehindTheRecordIsNotWrittenAgain() {
    logBatch(0, 1);
    logBatch(1, 2);
    runBatch(sink("q"), 1, List.of(List.of(7L)));
    // An old copy of the checkpoint that ends at batch 0.
    files.files.remove("offsets/1");

    assertEquals(
        CommitStaticTableSink.Result.ALREADY_APPLIED, runBatch(sink("q"), 0, List.of(List.of(9L))));
    assertEquals(List.of(7L), tableKeys());
  }

  @Test
  void aCommitForAnotherBatchThanTheOpenOneIsRefusedAndLeavesNothing() {
    logBatch(3, 1);
    CommitStaticTableSink sink = sink("q");
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    StaticTableTaskWriter writer = task(batch, 2);
    writer.write(row(1));
    StaticTableTaskReport report = writer.commit();

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> sink.commit(4, batch, List.of(report)));
    assertTrue(e.getMessage().contains("opened for batch 3"), e.getMessage());
    assertEquals(List.of(), tableKeys());
  }

  @Test
  void aTaskWhoseRowsTrickleInRenewsItsNestedTransaction() {
    logBatch(0, 4);
    CommitStaticTableSink sink = sink("q");
    CommitStaticTableSink.OpenBatch batch = sink.openBatch();
    MasterTransactionLease lease = new MasterTransactionLease(batch.transaction());
    StaticTableTaskWriter writer = task(batch, 2);
    writer.write(row(1));
    writer.write(row(2)); // a full chunk: the nested transaction starts with it
    clock.advance(Duration.ofSeconds(20));
    lease.renew();
    writer.write(row(3)); // two thirds of the timeout since the append: renewed
    clock.advance(Duration.ofSeconds(20));
    lease.renew();
    writer.write(row(4));

    sink.commit(0, batch, List.of(writer.commit()));

    assertEquals(List.of(1L, 2L, 3L, 4L), tableKeys());
  }

  @Test
  void theLeaseKeepsTheBatchTransactionAlive() {
    logBatch(0, 1);
    CommitStaticTableSink.OpenBatch batch = sink("q").openBatch();
    assertTrue(new MasterTransactionLease(batch.transaction()).renew());
    batch.transaction().abort();
    assertFalse(new MasterTransactionLease(batch.transaction()).renew());
  }
}
