package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.checkpoint.BatchRanges;
import io.ytstream.application.checkpoint.MapCheckpointFiles;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.application.offsets.LoggedOffsets;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A query SPYT ran, resumed by the {@code yt} source from SPYT's checkpoint: Spark's offset log
 * holds SPYT's offsets (the last row read of each partition) and no ytstream source record; the
 * consumer lags one batch (SPYT advances it at the next batch's start).
 */
class SpytCheckpointResumeTest {

  private static final YPath QUEUE = YPath.of("//home/q");
  private static final QueueId Q = QueueId.of("primary", "//home/q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//home/c");
  private static final String SPYT_HEADER =
      "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000000,\"conf\":{}}\n";

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  /** Two partitions of ten rows; SPYT read batch 0 to (2, -1) and batch 1 to (5, 3). */
  private MapCheckpointFiles spytCheckpoint() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), 2);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    for (int p = 0; p < 2; p++) {
      List<Row> rows = new ArrayList<>();
      for (long v = 0; v < 10; v++) {
        rows.add(Row.of("v", v));
      }
      cluster.appendToTablet(QUEUE, p, rows);
    }
    // SPYT committed batch 0 to the consumer when batch 1 started: rows 0..2 of partition 0.
    cluster.consumerOffsets().advance(CONSUMER, new PartitionId(Q, 0), OptionalLong.empty(), 3);
    return new MapCheckpointFiles(new TreeMap<>(), "yt:///home/ckpt")
        .with("offsets/0", SPYT_HEADER + spyt("{\"0\":2,\"1\":-1}"))
        .with("commits/0", "v1\n{\"nextBatchWatermarkMs\":0}")
        .with("offsets/1", SPYT_HEADER + spyt("{\"0\":5,\"1\":3}"))
        .with("commits/1", "v1\n{\"nextBatchWatermarkMs\":0}");
  }

  private static String spyt(String partitions) {
    return "{\"cluster\":\"primary\",\"path\":\"//home/q\",\"partitions\":" + partitions + "}";
  }

  private StreamingSource source(QueryCheckpoint checkpoint) {
    return new StreamingSource(
        new SourcePorts(
            cluster.queueMetadata(),
            cluster.consumerOffsets(),
            cluster.queueReader(),
            cluster.queueRangeReader(),
            cluster.tableMetadata()),
        CONSUMER,
        List.of(Q),
        PlanLimits.of(100, DataLossPolicy.FAIL),
        Optional.empty(),
        checkpoint,
        0);
  }

  private static StreamOffsets at(long p0, long p1) {
    return StreamOffsets.of(Map.of(new PartitionId(Q, 0), p0, new PartitionId(Q, 1), p1));
  }

  @Test
  void theNextBatchStartsAfterTheLastRowsSpytReadAndTheSinksFindItsRanges() {
    MapCheckpointFiles files = spytCheckpoint();
    QueryCheckpoint checkpoint = new QueryCheckpoint(files);
    StreamingSource source = source(checkpoint);

    // Spark's restart: the last logged end, handed to the source as text.
    LoggedOffsets start = LoggedOffsets.read(spyt("{\"0\":5,\"1\":3}"));
    assertTrue(start.convertedFromSpyt());
    assertEquals(at(6, 4), start.offsets(), "the row after the last one SPYT read");

    StreamOffsets end = source.latestOffset(start.offsets(), TriggerLimit.none(), 0).end();
    assertEquals(at(10, 10), end);
    assertEquals(at(6, 4), cluster.consumerOffsets().read(CONSUMER, Q), "the consumer is level");
    assertEquals(
        Optional.of(new SourceRecord(CONSUMER, at(6, 4))),
        checkpoint.source(0),
        "the first batch ytstream plans records the source, as a new checkpoint does");

    // Spark logs the batch in ytstream's form; the sinks read its ranges from the log.
    files = files.with("offsets/2", OffsetLogEntry.of(end));
    BatchRanges next = new QueryCheckpoint(files).batchRanges(2);
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 6, 10),
            new OffsetRange(new PartitionId(Q, 1), 4, 10)),
        next.ranges());
    assertEquals(Map.of(Q, CONSUMER), next.consumers());
    // SPYT's own batch reads as SPYT read it: after the end of batch 0, up to the end of batch 1.
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 3, 6),
            new OffsetRange(new PartitionId(Q, 1), 0, 4)),
        new QueryCheckpoint(files).batchRanges(1).ranges());
  }

  @Test
  void aSpytBatchThatDidNotFinishRunsAgainFromItsLoggedStart() {
    MapCheckpointFiles files = spytCheckpoint().with("commits/1", "");
    StreamingSource source = source(new QueryCheckpoint(files));
    StreamOffsets start = LoggedOffsets.read(spyt("{\"0\":2,\"1\":-1}")).offsets();
    StreamOffsets end = LoggedOffsets.read(spyt("{\"0\":5,\"1\":3}")).offsets();

    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 3, 6),
            new OffsetRange(new PartitionId(Q, 1), 0, 4)),
        source.planInputPartitions(start, end).stream().flatMap(t -> t.ranges().stream()).toList());
  }
}
