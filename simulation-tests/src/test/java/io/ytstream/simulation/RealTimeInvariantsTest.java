package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each of Real-time Mode's invariants fails on a hand-made state of the cluster that breaks it, and
 * a state that keeps them all passes, so none is blind.
 */
class RealTimeInvariantsTest {

  private final RealTimeWorkload w =
      new RealTimeWorkload(
          1, RealTimeMode.PRODUCER, queue(), partitions(), 1, 1, 1, 1, 0, 3, 1, 10);
  private final SimCluster cluster = new InMemorySimCluster();
  private final RealTimeContext ctx =
      new RealTimeContext(w, cluster, new FaultClock(new FaultSchedule(List.of())), false);
  private final RealTimeInvariants checker = new RealTimeInvariants(ctx);

  private static io.ytstream.core.model.QueueId queue() {
    return io.ytstream.core.model.QueueId.of("primary", "//sim/queue0");
  }

  private static List<PartitionId> partitions() {
    return List.of(new PartitionId(queue(), 0));
  }

  RealTimeInvariantsTest() {
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

  private TreeSet<RealTimeInvariants.Invariant> found() {
    TreeSet<RealTimeInvariants.Invariant> out = new TreeSet<>();
    checker.violations().forEach(v -> out.add(v.invariant()));
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
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.LOST_WRITE)), found());
  }

  @Test
  void aRowTwiceIsADuplicateWrite() {
    output(0, 10);
    output(0, 10);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.DUPLICATE_WRITE)), found());
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
        new TreeSet<>(
            List.of(
                RealTimeInvariants.Invariant.LOST_WRITE,
                RealTimeInvariants.Invariant.CONSUMER_AHEAD_OF_OUTPUT)),
        found());
  }

  @Test
  void aConsumerPastTheLastCommittedEndIsPremature() {
    output(0, 10);
    output(1, 11);
    committed(0, 1);
    consumerAt(2);
    checker.afterStep();
    assertEquals(
        new TreeSet<>(List.of(RealTimeInvariants.Invariant.CONSUMER_AHEAD_OF_CHECKPOINT)), found());
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
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.OFFSETS_MONOTONIC)), found());
  }

  @Test
  void aWrongValueIsCorruptOutput() {
    output(0, 99);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.CORRUPT_OUTPUT)), found());
  }

  @Test
  void rowsOutOfSourceOrderInATabletAreReordered() {
    output(1, 11);
    output(0, 10);
    checker.afterStep();
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.OUTPUT_ORDER)), found());
  }

  @Test
  void rowsNeverConsumedAreStuck() {
    checker.finish(false);
    assertEquals(new TreeSet<>(List.of(RealTimeInvariants.Invariant.STUCK)), found());
  }
}
