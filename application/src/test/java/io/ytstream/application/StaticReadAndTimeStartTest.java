package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.offsets.StartingOffsetsText;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.StaticReadPlan;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A static read's plan and tasks, and starts by time, over the in-memory cluster. */
class StaticReadAndTimeStartTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final long T0 = 1_704_067_200_000L;

  private final ManualClock clock = new ManualClock(T0);
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);

  /** Two partitions; second s (from T0) holds rows v = 10 s .. 10 s + 2 in each. */
  private void queueOverSeconds(int seconds, boolean withTimestamp) {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("v", "int64", false, true));
    if (withTimestamp) {
      columns.add(new Column("$timestamp", "uint64", false, false));
    }
    cluster.createOrderedTable(QUEUE, columns, 2);
    for (int s = 0; s < seconds; s++) {
      for (int p = 0; p < 2; p++) {
        List<Row> rows = new ArrayList<>();
        for (long v = 10L * s; v < 10L * s + 3; v++) {
          rows.add(Row.of("v", v));
        }
        cluster.appendToTablet(QUEUE, p, rows);
      }
      clock.advanceMillis(1_000);
    }
  }

  private PlanBatchRead planner() {
    return new PlanBatchRead(cluster.queueMetadata(), cluster.queueRangeReader(), List.of(Q));
  }

  private static PlanBatchRead.Bound start(String text) {
    return new PlanBatchRead.Bound(StartingOffsetsText.parse(text), "starting_offsets");
  }

  private static PlanBatchRead.Bound end(String text) {
    return new PlanBatchRead.Bound(StartingOffsetsText.parse(text), "ending_offsets");
  }

  private List<Long> read(StaticReadPlan plan) {
    List<Long> values = new ArrayList<>();
    ReadRanges read =
        ReadRanges.withoutConsumer(
            cluster.queueRangeReader(),
            cluster.queueMetadata(),
            plan.ranges(),
            2,
            DataLossPolicy.FAIL,
            loss -> {});
    for (QueueRow row : read.readAll()) {
      values.add((Long) row.data().get("v"));
    }
    return values;
  }

  @Test
  void aRangeIsReadWithoutAnyConsumerInTasksOfBoundedSize() {
    queueOverSeconds(3, false);
    StaticReadPlan plan =
        planner()
            .plan(
                start("{\"//q\": {\"0\": 1, \"1\": -2}}"),
                end("{\"//q\": {\"0\": 8, \"1\": 4}}"),
                3,
                DataLossPolicy.FAIL);
    assertEquals(
        List.of(
            new OffsetRange(P0, 1, 4),
            new OffsetRange(P0, 4, 7),
            new OffsetRange(P0, 7, 8),
            new OffsetRange(P1, 0, 3),
            new OffsetRange(P1, 3, 4)),
        plan.ranges());
    assertEquals(List.of(1L, 2L, 10L, 11L, 12L, 20L, 21L, 0L, 1L, 2L, 10L), read(plan));
    assertTrue(cluster.registrations().isEmpty(), "no consumer was registered or needed");
  }

  @Test
  void anEndBeforeItsStartNamesBothOptionsWhatEachGivesThePartitionAndTheRows() {
    queueOverSeconds(3, true);
    IllegalArgumentException byOffsets =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                planner()
                    .plan(
                        start("{\"//q\": {\"0\": 1, \"1\": 6}}"),
                        end("{\"//q\": {\"0\": 8, \"1\": 4}}"),
                        100,
                        DataLossPolicy.FAIL));
    assertEquals(
        "the static read of //q partition 1 ends before it starts: option ending_offsets ="
            + " {\"//q\": {\"1\": 4}} ends it at row 4 (exclusive), option starting_offsets ="
            + " {\"//q\": {\"1\": 6}} starts it at row 6. Give an end at or after the start, or"
            + " swap the two",
        byOffsets.getMessage());

    // By time, the rows are where the times fall; the message gives the times as well.
    IllegalArgumentException byTime =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                planner()
                    .plan(
                        new PlanBatchRead.Bound(
                            new StartingOffsets.AtTimestamp(T0 + 2_000), "starting_timestamp"),
                        new PlanBatchRead.Bound(
                            new StartingOffsets.AtTimestamp(T0 + 1_000), "ending_timestamp"),
                        100,
                        DataLossPolicy.FAIL));
    assertTrue(
        byTime
            .getMessage()
            .startsWith(
                "the static read of //q partition 0 ends before it starts: option"
                    + " ending_timestamp = "
                    + (T0 + 1_000)
                    + " (2024-01-01T00:00:01Z) ends it at row 3 (exclusive), option"
                    + " starting_timestamp = "
                    + (T0 + 2_000)
                    + " (2024-01-01T00:00:02Z) starts it at row 6."),
        byTime.getMessage());
  }

  @Test
  void aRangeByTimeStartsAndEndsAtTheFirstRowOfASecond() {
    queueOverSeconds(4, true);
    // Half past second 1: the server's timestamps hold whole seconds, so second 1's rows count.
    PlanBatchRead.Bound from =
        new PlanBatchRead.Bound(new StartingOffsets.AtTimestamp(T0 + 1_500), "starting_timestamp");
    PlanBatchRead.Bound to =
        new PlanBatchRead.Bound(new StartingOffsets.AtTimestamp(T0 + 3_000), "ending_timestamp");
    StaticReadPlan plan = planner().plan(from, to, 100, DataLossPolicy.FAIL);
    assertEquals(List.of(new OffsetRange(P0, 3, 9), new OffsetRange(P1, 3, 9)), plan.ranges());
    assertEquals(List.of(10L, 11L, 12L, 20L, 21L, 22L, 10L, 11L, 12L, 20L, 21L, 22L), read(plan));

    // After every row: each partition's end; before every row: its first row.
    FindOffsetByTimestamp find = new FindOffsetByTimestamp(cluster.queueRangeReader());
    assertEquals(
        StreamOffsets.of(Map.of(P0, 12L, P1, 12L)),
        find.offsets(planner().readBounds(), T0 + 60_000, "starting_timestamp"));
    cluster.trimRows(QUEUE, 0, 2);
    assertEquals(
        StreamOffsets.of(Map.of(P0, 2L, P1, 0L)),
        find.offsets(planner().readBounds(), 0, "starting_timestamp"));
  }

  @Test
  void aTimeOnAQueueWithoutTimestampIsRefusedNamingTheOption() {
    queueOverSeconds(1, false);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                planner()
                    .plan(
                        new PlanBatchRead.Bound(
                            new StartingOffsets.AtTimestamp(T0), "starting_timestamp"),
                        end("latest"),
                        100,
                        DataLossPolicy.FAIL));
    assertTrue(
        e.getMessage().startsWith("option starting_timestamp needs $timestamp"), e.getMessage());
  }

  @Test
  void trimmedRowsFailOrAreSkippedAndCounted() {
    queueOverSeconds(2, false);
    cluster.trimRows(QUEUE, 0, 4);
    assertThrows(
        DataLossException.class,
        () ->
            planner()
                .plan(
                    start("{\"//q\": {\"0\": 0, \"1\": 0}}"),
                    end("latest"),
                    100,
                    DataLossPolicy.FAIL));
    StaticReadPlan skipped =
        planner()
            .plan(
                start("{\"//q\": {\"0\": 0, \"1\": 0}}"),
                end("latest"),
                100,
                DataLossPolicy.SKIP_AND_REPORT);
    assertEquals(4, skipped.lostRowCount());
    assertEquals(List.of(11L, 12L, 0L, 1L, 2L, 10L, 11L, 12L), read(skipped));
  }

  @Test
  void startingLatestAndEndingEarliestAreRefusedAsKafkaDoes() {
    queueOverSeconds(1, false);
    IllegalArgumentException latest =
        assertThrows(
            IllegalArgumentException.class,
            () -> planner().plan(start("latest"), end("latest"), 100, DataLossPolicy.FAIL));
    assertTrue(latest.getMessage().contains("starting_offsets = latest"), latest.getMessage());
    IllegalArgumentException earliest =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                planner()
                    .plan(
                        start("earliest"),
                        end("{\"//q\": {\"0\": -2, \"1\": -1}}"),
                        100,
                        DataLossPolicy.FAIL));
    assertTrue(
        earliest.getMessage().startsWith("option ending_offsets ends"), earliest.getMessage());
  }

  @Test
  void aStreamStartsAtATimeOnlyWhereTheConsumerHasNoPosition() {
    queueOverSeconds(3, true);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    PlanMicroBatch planner =
        new PlanMicroBatch(
            cluster.queueMetadata(), CONSUMER, List.of(Q), PlanLimits.of(100, DataLossPolicy.FAIL));
    AdvanceConsumer advancer = new AdvanceConsumer(cluster.consumerOffsets(), CONSUMER, List.of(Q));
    ResumeOrStartQuery resume =
        new ResumeOrStartQuery(
            planner, advancer, CONSUMER, new FindOffsetByTimestamp(cluster.queueRangeReader()));
    Optional<StartingOffsets> atSecond2 = Optional.of(new StartingOffsets.AtTimestamp(T0 + 2_000));

    assertEquals(
        StreamOffsets.of(Map.of(P0, 6L, P1, 6L)),
        resume.initialOffsets(Optional.empty(), atSecond2, "//checkpoint"));

    advancer.bringLevel(StreamOffsets.of(Map.of(P0, 1L, P1, 1L)));
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> resume.initialOffsets(Optional.empty(), atSecond2, "//checkpoint"));
    assertTrue(
        refused.getMessage().startsWith("option starting_timestamp is for a query the consumer"),
        refused.getMessage());
  }
}
