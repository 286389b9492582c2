package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.SourcePorts;
import io.ytstream.application.StreamingSource;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A byte cap on a queue whose schema has no {@code $cumulative_data_weight} (every seeded queue
 * declares it): the shipped source refuses the batch, naming the options as the user set them, the
 * queue and the fix, and the consumer does not move.
 */
class ByteCapWithoutWeightsTest {

  private static final QueueId QUEUE = QueueId.of("primary", "//sim/plain");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//sim/plain-consumer");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  ByteCapWithoutWeightsTest() {
    cluster.createOrderedTable(QUEUE.path(), List.of(new Column("v", "int64", false, true)), 1);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE.path(), CONSUMER.path(), true);
    cluster.appendToTablet(QUEUE.path(), 0, List.of(Row.of("v", 1L), Row.of("v", 2L)));
  }

  private StreamingSource source(OptionalLong perPartition) {
    return new StreamingSource(
        new SourcePorts(
            cluster.queueMetadata(),
            cluster.consumerOffsets(),
            cluster.queueReader(),
            cluster.queueRangeReader(),
            cluster.tableMetadata()),
        CONSUMER,
        List.of(QUEUE),
        new PlanLimits(10, DataLossPolicy.FAIL, perPartition),
        Optional.empty(),
        new QueryCheckpoint(new MemoryCheckpointFiles(new TreeMap<>(), "yt://sim/plain")),
        0);
  }

  private static TriggerLimit trigger(OptionalLong maxBytes) {
    return new TriggerLimit(
        OptionalLong.empty(), OptionalLong.empty(), TriggerLimit.DEFAULT_MAX_DELAY_MS, maxBytes);
  }

  private String refusal(OptionalLong perPartition, OptionalLong perTrigger) {
    StreamingSource source = source(perPartition);
    StreamOffsets start = source.initialOffset().offsets();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> source.latestOffset(start, trigger(perTrigger), 0));
    assertEquals(
        0,
        cluster
            .consumerOffsets()
            .read(CONSUMER, QUEUE)
            .getOrDefault(new io.ytstream.core.model.PartitionId(QUEUE, 0), 0));
    assertTrue(e.getMessage().contains("queue //sim/plain does not declare"), e::getMessage);
    assertTrue(
        e.getMessage().contains("{name=\"$cumulative_data_weight\"; type=int64}"), e::getMessage);
    return e.getMessage();
  }

  @Test
  void eachByteOptionSetIsNamedWithItsValue() {
    assertTrue(
        refusal(OptionalLong.of(100), OptionalLong.of(50))
            .startsWith(
                "option max_bytes_per_partition = 100 and max_bytes_per_trigger = 50 caps"));
    assertTrue(
        refusal(OptionalLong.of(100), OptionalLong.empty())
            .startsWith("option max_bytes_per_partition = 100 caps"));
    assertTrue(
        refusal(OptionalLong.empty(), OptionalLong.of(50))
            .startsWith("option max_bytes_per_trigger = 50 caps"));
  }

  @Test
  void withoutAByteCapTheSameQueueIsRead() {
    StreamingSource source = source(OptionalLong.empty());
    StreamOffsets start = source.initialOffset().offsets();
    StreamOffsets end = source.latestOffset(start, trigger(OptionalLong.empty()), 0).end();
    assertEquals(2, end.getOrDefault(new io.ytstream.core.model.PartitionId(QUEUE, 0), 0));
  }
}
