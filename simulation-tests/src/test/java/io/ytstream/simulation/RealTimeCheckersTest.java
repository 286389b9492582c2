package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.ConsumerAheadOfOutput;
import io.ytstream.simulation.check.DuplicateWrite;
import io.ytstream.simulation.check.FalseDataLoss;
import io.ytstream.simulation.check.GarbageWrite;
import io.ytstream.simulation.check.LostWrite;
import io.ytstream.simulation.check.NonmonotonicOffsets;
import io.ytstream.simulation.check.NonmonotonicSend;
import io.ytstream.simulation.check.PollSkip;
import io.ytstream.simulation.check.PrematureCommit;
import io.ytstream.simulation.check.RedundantRead;
import io.ytstream.simulation.check.SlotCheck;
import io.ytstream.simulation.check.StaleRead;
import io.ytstream.simulation.check.Stuck;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each of Real-time Mode's invariants fails on a hand-made state of the cluster that breaks it, and
 * a state that keeps them all passes, so none is blind.
 */
class RealTimeCheckersTest {

  private final RealTimeWorkload w =
      new RealTimeWorkload(
          1, RealTimeMode.PRODUCER, queue(), partitions(), 1, 1, 1, 1, 0, 3, 1, 10);
  private final SimCluster cluster = new InMemorySimCluster();
  private final RealTimeContext ctx =
      new RealTimeContext(w, cluster, new FaultClock(new FaultSchedule(List.of())), false);
  private final RealTimeOutput checker = new RealTimeOutput(ctx);

  private static io.ytstream.core.model.QueueId queue() {
    return io.ytstream.core.model.QueueId.of("primary", "//sim/queue0");
  }

  private static List<PartitionId> partitions() {
    return List.of(new PartitionId(queue(), 0));
  }

  RealTimeCheckersTest() {
    ctx.checker = checker;
    RealTimeRun.setUp(cluster, w);
    for (long v = 0; v < 3; v++) {
      checker.recordInput(0, 10 + v);
    }
    cluster.append(queue(), 0, List.of(row(0), row(1), row(2)));
  }

  private static Row row(long r) {
    return Row.of("q", 0L, "k", 0L, "v", 10 + r);
  }

  private void output(long r, long v) {
    cluster
        .ports()
        .outputTables()
        .append(Workload.OUTPUT, List.of(Row.of("p", 0L, "r", r, "i", 0L, "v", v)));
  }

  private void consumerAt(long offset) {
    cluster
        .ports()
        .consumerOffsets()
        .advance(Workload.CONSUMER, partitions().get(0), OptionalLong.empty(), offset);
  }

  private void committed(long batch, long end) {
    StoreCheckpointFiles files =
        new StoreCheckpointFiles(cluster.ports().checkpoints(), Workload.CHECKPOINT, "t");
    StreamOffsets e = StreamOffsets.of(new TreeMap<>(Map.of(partitions().get(0), end)));
    files.createIfAbsent("offsets/" + batch, OffsetLogEntry.of(e).getBytes(StandardCharsets.UTF_8));
    files.createIfAbsent("commits/" + batch, "v1\n{}".getBytes(StandardCharsets.UTF_8));
    checker.onCommitted();
  }

  private TreeSet<String> found() {
    TreeSet<String> out = new TreeSet<>();
    checker.violations().forEach(v -> out.add(v.property().name()));
    return out;
  }

  @Test
  void aStateThatKeepsThemPasses() {
    output(0, 10);
    output(1, 11);
    committed(0, 2);
    consumerAt(2);
    checker.afterStep();
    output(2, 12);
    committed(1, 3);
    consumerAt(3);
    checker.finish(true);
    assertEquals(new TreeSet<>(), found());
  }

  @Test
  void aCommittedBatchWhoseRowsAreMissingIsALostWrite() {
    output(0, 10);
    committed(0, 2);
    assertEquals(new TreeSet<>(List.of(LostWrite.PROPERTY.name())), found());
  }

  @Test
  void aRowTwiceIsADuplicateWrite() {
    output(0, 10);
    output(0, 10);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(DuplicateWrite.PROPERTY.name())), found());
  }

  @Test
  void aConsumerPastTheOutputIsALostWrite() {
    output(0, 10);
    committed(0, 1);
    committed(1, 2);
    // Batch 1 committed without its row: a lost write, and the consumer that follows passes it.
    consumerAt(2);
    checker.afterStep();
    assertEquals(
        new TreeSet<>(List.of(LostWrite.PROPERTY.name(), ConsumerAheadOfOutput.PROPERTY.name())),
        found());
  }

  @Test
  void aConsumerPastTheLastCommittedEndIsPremature() {
    output(0, 10);
    output(1, 11);
    committed(0, 1);
    consumerAt(2);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(PrematureCommit.PROPERTY.name())), found());
  }

  @Test
  void aConsumerThatGoesBackIsNonmonotonic() {
    output(0, 10);
    output(1, 11);
    committed(0, 2);
    consumerAt(2);
    checker.afterStep();
    consumerAt(1);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(NonmonotonicOffsets.PROPERTY.name())), found());
  }

  @Test
  void aWrongValueIsCorruptOutput() {
    output(0, 99);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(GarbageWrite.PROPERTY.name())), found());
  }

  @Test
  void rowsOutOfSourceOrderInATabletAreReordered() {
    output(1, 11);
    output(0, 10);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(NonmonotonicSend.PROPERTY.name())), found());
  }

  @Test
  void rowsNeverConsumedAreStuck() {
    checker.finish(false);
    assertEquals(new TreeSet<>(List.of(Stuck.PROPERTY.name())), found());
  }

  private static QueueRow pulled(long r) {
    return new QueueRow(0, r, row(r), OptionalLong.empty(), OptionalLong.empty());
  }

  private static Set<PartitionId> tasksOf(int... tablets) {
    TreeSet<PartitionId> out = new TreeSet<>();
    for (int t : tablets) {
      out.add(new PartitionId(queue(), t));
    }
    return out;
  }

  @Test
  void trimmedRowsPassedUnreportedAreSilentDataLoss() {
    output(0, 10);
    output(2, 12);
    cluster.trim(queue(), 0, 2);
    committed(0, 3);
    assertEquals(new TreeSet<>(List.of(PollSkip.PROPERTY.name())), found());
  }

  @Test
  void trimmedRowsReportedLostExcuseTheirAbsence() {
    output(0, 10);
    output(2, 12);
    cluster.trim(queue(), 0, 2);
    ctx.reportedLost.add(new DataLoss(partitions().get(0), 1, 2));
    committed(0, 3);
    consumerAt(3);
    checker.afterStep();
    checker.finish(true);
    assertEquals(new TreeSet<>(), found());
  }

  @Test
  void aTrimmedTailNoTaskReachedIsNeitherLostNorStuck() {
    output(0, 10);
    committed(0, 1);
    consumerAt(1);
    checker.afterStep();
    cluster.trim(queue(), 0, 3);
    assertTrue(checker.goneUnread(0, 1), "nothing is left to read past the consumer");
    checker.finish(true);
    assertEquals(new TreeSet<>(), found());
  }

  @Test
  void aDataLossFailureNamingUntrimmedRowsIsFalse() {
    checker.onDataLossFailure(List.of(new DataLoss(partitions().get(0), 0, 2)));
    assertEquals(new TreeSet<>(List.of(FalseDataLoss.PROPERTY.name())), found());
  }

  @Test
  void aConsumerPastTheOldQueuesRowsAfterItsRecreationIsAStaleRead() {
    output(0, 10);
    committed(0, 1);
    checker.onQueueRecreated();
    cluster.recreateQueue(queue(), 1);
    consumerAt(5);
    checker.afterStep();
    assertTrue(found().contains(StaleRead.PROPERTY.name()), found()::toString);
  }

  @Test
  void aQueryRunningOnPositionsAReCreatedQueueNoLongerFitsIsStuck() {
    output(0, 10);
    committed(0, 1);
    checker.onQueueRecreated();
    checker.onRunEndAfterRecreation(true, Optional.empty());
    assertEquals(new TreeSet<>(), found(), "it stopped, naming the positions");
    checker.onRunEndAfterRecreation(false, Optional.empty());
    assertEquals(new TreeSet<>(List.of(Stuck.PROPERTY.name())), found());
  }

  @Test
  void theLiveRunsPositionsDecideWhetherItRunsOnTheOldQueue() {
    output(0, 10);
    committed(0, 1);
    checker.onQueueRecreated();
    // A stalled run committed the old queue's positions; its successor runs from zero ones.
    checker.onRunEndAfterRecreation(
        false, Optional.of(StreamOffsets.of(Map.of(partitions().get(0), 0L))));
    assertEquals(new TreeSet<>(), found(), "zero positions fit the re-created queue");
    checker.onRunEndAfterRecreation(
        false, Optional.of(StreamOffsets.of(Map.of(partitions().get(0), 2L))));
    assertEquals(new TreeSet<>(List.of(Stuck.PROPERTY.name())), found());
  }

  @Test
  void aRowPulledAgainInOneRunIsRedundant() {
    checker.onPulled("run-1", partitions().get(0), List.of(pulled(0), pulled(1)));
    checker.onPulled("run-2", partitions().get(0), List.of(pulled(0)));
    checker.onPulled("run-1", partitions().get(0), List.of(pulled(2)));
    assertEquals(new TreeSet<>(), found(), "another run, and the rows after");
    checker.onPulled("run-1", partitions().get(0), List.of(pulled(1), pulled(2)));
    assertEquals(new TreeSet<>(List.of(RedundantRead.PROPERTY.name())), found());
  }

  @Test
  void tasksOtherThanTheSlotCheckCountedAreRefused() {
    checker.onFirstTasks(List.of(tasksOf(0, 1)), List.of(tasksOf(0, 1)));
    assertEquals(new TreeSet<>(), found());
    checker.onFirstTasks(List.of(tasksOf(0, 1)), List.of(tasksOf(0), tasksOf(1)));
    assertEquals(new TreeSet<>(List.of(SlotCheck.PROPERTY.name())), found());
  }

  @Test
  void rowsHandedToTheWriterAreInTheOutputOnlyOnceWritten() {
    List<long[]> handed = List.of(new long[] {0, 0}, new long[] {0, 1});
    output(0, 10);
    assertFalse(checker.inOutput(handed));
    output(1, 11);
    assertTrue(checker.inOutput(handed));
  }

  @Test
  void aHandedRowReportedLostNeedNotBeInTheOutput() {
    List<long[]> handed = List.of(new long[] {0, 0}, new long[] {0, 1});
    output(0, 10);
    ctx.reportedLost.add(new DataLoss(partitions().get(0), 1, 2));
    assertTrue(checker.inOutput(handed));
    assertFalse(checker.inOutput(List.of(new long[] {0, 2})), "row 2 was not reported lost");
  }
}
