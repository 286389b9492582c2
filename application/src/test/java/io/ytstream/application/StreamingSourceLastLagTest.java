package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamingSource#lastLag}: each partition's figures of the last {@code metrics} call, for
 * an engine that shows them per partition (the Spark adapter's metrics plugin); rows only when the
 * lag columns could not be read, as the progress report leaves bytes and seconds out then.
 */
class StreamingSourceLastLagTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final long ROW_WEIGHT = 1 + 8 + 2 + 8 + 8; // payload "p0".."p9"

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);

  private void queue() {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", "int64", false, false));
    columns.add(new Column("payload", "string", false, false));
    columns.add(new Column("$timestamp", "uint64", false, false));
    columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    cluster.createOrderedTable(QUEUE, columns, 2);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < 3; id++) {
      rows.add(Row.of("id", id, "payload", "p" + id));
    }
    cluster.appendToTablet(QUEUE, 0, rows);
    clock.advance(Duration.ofSeconds(5));
    cluster.appendToTablet(QUEUE, 0, List.of(Row.of("id", 3L, "payload", "p3")));
  }

  private StreamingSource source(QueuePartitionReader reader) {
    return InMemorySources.over(cluster, reader, CONSUMER, Q);
  }

  private QueueBounds bounds() {
    return new PlanMicroBatch(
            cluster.queueMetadata(), CONSUMER, List.of(Q), PlanLimits.of(100, DataLossPolicy.FAIL))
        .readBounds();
  }

  @Test
  void eachPartitionsFiguresOfTheLastReport() {
    queue();
    StreamingSource source = source(cluster.queueReader());
    assertEquals(Optional.empty(), source.lastLag(), "nothing before the first report");

    source.metrics(
        Optional.of(StreamOffsets.of(Map.of(P0, 1L, P1, 0L))), Optional.of(bounds()), e -> {});

    assertEquals(
        List.of(
            new MeasureLag.PartitionLag(P0, 3, OptionalLong.of(3 * ROW_WEIGHT), OptionalLong.of(5)),
            new MeasureLag.PartitionLag(P1, 0, OptionalLong.of(0), OptionalLong.of(0))),
        source.lastLag().orElseThrow().partitions());
  }

  @Test
  void unreadableLagColumnsLeaveRowsOnly() {
    queue();
    StreamingSource source =
        source(
            (consumer, partition, offset, maxRows) -> {
              throw new IllegalStateException("pull failed");
            });
    boolean[] told = {false};

    Map<String, String> report =
        source.metrics(
            Optional.of(StreamOffsets.of(Map.of(P0, 1L, P1, 0L))),
            Optional.of(bounds()),
            e -> told[0] = true);

    assertEquals(
        List.of(
            new MeasureLag.PartitionLag(P0, 3, OptionalLong.empty(), OptionalLong.empty()),
            new MeasureLag.PartitionLag(P1, 0, OptionalLong.empty(), OptionalLong.empty())),
        source.lastLag().orElseThrow().partitions());
    assertEquals("3", report.get("totalRowsBehindLatest"));
    assertFalse(report.containsKey("totalBytesBehindLatest"), report.toString());
    assertEquals(true, told[0]);
  }
}
