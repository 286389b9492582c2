package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.CommitTransactionalBatch;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The user stopping the query while the driver waits on a cluster call ({@code QUERY_STOPPED}). */
class QueryStoppedTest {

  /**
   * A consumer advance whose commit request was lost, then stopped during the read that resolves
   * it: the advance threw the lost commit with the interruption suppressed, so Spark would have
   * ended the stopped query failed. (The stop's place is the one where {@code AdvanceConsumer}
   * throwing the lost commit instead of the interruption fails this run with {@code StopNotClean};
   * it moves when the driver's calls before it change.)
   */
  @Test
  void aStopDuringTheReadThatResolvesALostAdvanceEndsAsAStop() {
    RunResult r =
        run(
            "at-least-once",
            30,
            1926,
            "TRANSACTION_EXPIRY@226:10,COMMIT_LOST@52:13,QUERY_STOPPED@278:3");
    assertEquals(List.of(), r.violations());
    assertTrue(
        r.trace().contains("stopped by the user during PLAN"), "the stop falls inside a plan");
  }

  /**
   * A static table batch whose master transaction commit is stopped: the sink must throw the
   * interruption, not its own not-committed error around it, or Spark ends the stopped query
   * failed.
   */
  @Test
  void aStopDuringAStaticTableBatchCommitEndsAsAStop() {
    RunResult r = run("static-table", 30, 85, "ZOMBIE_DRIVER@150:0,QUERY_STOPPED@330:3");
    assertEquals(List.of(), r.violations());
    assertTrue(
        r.trace().contains("stopped by the user during SINK_COMMIT"),
        "the stop falls inside the sink's commit");
  }

  /**
   * A batch commit answered as unknown, then stopped during the consumer read that resolves it: the
   * batch must throw the interruption (Spark then ends the stop cleanly), not its own not-committed
   * error around the lost answer, and leave the thread's interrupt flag set.
   */
  @Test
  void aStopDuringTheReadThatResolvesAnUnknownBatchCommitEndsAsAStop() {
    QueueId queue = QueueId.of("primary", "//sim/queue0");
    PartitionId partition = new PartitionId(queue, 0);
    InMemorySimCluster cluster = new InMemorySimCluster();
    cluster.createQueue(queue, 1);
    cluster.append(
        queue, 0, List.of(Row.of("q", 0L, "k", 1L, "v", 1L), Row.of("q", 0L, "k", 2L, "v", 2L)));
    cluster.createConsumer(Workload.CONSUMER, List.of(queue));
    cluster.createSortedTable(Workload.OUTPUT, List.of("k"), List.of("v"));
    // In the driver's calls: the consumer read in the transaction, its advance, the commit (its
    // answer lost), then the read outside it, where the stop falls.
    FaultyPorts ports =
        new FaultyPorts(
            cluster, new FaultClock(FaultSchedule.parse("COMMIT_UNKNOWN@0:0,QUERY_STOPPED@3:0")));
    TabletTransaction tx = ports.start(Duration.ofSeconds(30));
    tx.insertRows(Workload.OUTPUT, List.of(Row.of("k", 1L, "v", 1L)));
    ports.driverCalls(true);
    RuntimeException thrown;
    try {
      thrown =
          assertThrows(
              RuntimeException.class,
              () ->
                  new CommitTransactionalBatch(ports)
                      .commit(
                          0,
                          tx,
                          List.of(new OffsetRange(partition, 0, 2)),
                          Map.of(queue, Workload.CONSUMER)));
    } finally {
      assertTrue(Thread.interrupted(), "the interrupt flag is still set");
    }
    assertTrue(SparkInterruptions.isInterruption(thrown), () -> "Spark sees a stop: " + thrown);
    assertTrue(ports.takeStop(), "the stop fell where the schedule put it");
    assertEquals(
        StreamOffsets.of(Map.of(partition, 2L)),
        cluster.ports().consumerOffsets().read(Workload.CONSUMER, queue),
        "the commit landed before its answer was lost");
  }

  private static RunResult run(String mode, int batches, long seed, String schedule) {
    SimulationRun.Options options =
        new SimulationRun.Options(SimMode.parse(mode), 0, Mutant.NONE, batches, true);
    return SimulationRun.run(seed, options, FaultSchedule.parse(schedule));
  }
}
