package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.ProducerPushOutcome;
import io.ytstream.application.PushThroughProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The push faults of producer mode, each through the shipped {@link PushThroughProducerSession} on
 * the cluster the simulation runs: what the writer sees and what the output queue holds after it.
 */
class ProducerPushFaultsTest {

  private static final ProducerSessionId SESSION =
      new ProducerSessionId(Workload.PRODUCER, Workload.OUTPUT, "writer:q:0");

  private final InMemorySimCluster cluster = new InMemorySimCluster();

  private FaultClock faults;

  private FaultyPorts portsWith(String schedule) {
    cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), 1);
    cluster.createQueueProducer(Workload.PRODUCER);
    faults = new FaultClock(FaultSchedule.parse(schedule));
    return new FaultyPorts(cluster, faults);
  }

  private static List<Row> rows(long from, int n) {
    List<Row> rows = new java.util.ArrayList<>();
    for (long r = from; r < from + n; r++) {
      rows.add(Row.of("p", 0L, "r", r, "i", 0L, "v", r * 2 + 1));
    }
    return rows;
  }

  private long outputRows() {
    return cluster.readChanges(Workload.OUTPUT).rowCount();
  }

  @Test
  void aRequestLostBeforeItLandedIsSentAgainAndWritesOnce() {
    FaultyPorts ports = portsWith("PUSH_REQUEST_LOST@0:0");
    long epoch = ports.createSession(SESSION).epoch();
    ProducerPushOutcome outcome =
        new PushThroughProducerSession(ports).push(SESSION, epoch, 0, rows(0, 3), Optional.empty());
    assertEquals(1, faults.fired(SimFault.PUSH_REQUEST_LOST), "the lost request was injected");
    assertEquals(ProducerPushOutcome.Kind.WRITTEN, outcome.kind());
    assertEquals(3, outputRows());
    assertEquals(0, ports.skippedPushRows());
  }

  @Test
  void anAnswerLostAfterThePushLandedIsSentAgainAndSkipped() {
    FaultyPorts ports = portsWith("COMMIT_UNKNOWN@0:0");
    long epoch = ports.createSession(SESSION).epoch();
    ProducerPushOutcome outcome =
        new PushThroughProducerSession(ports).push(SESSION, epoch, 0, rows(0, 3), Optional.empty());
    assertEquals(ProducerPushOutcome.Kind.ALREADY_WRITTEN, outcome.kind());
    assertEquals(3, outputRows());
    assertEquals(3, ports.skippedPushRows());
  }

  @Test
  void aLockConflictIsSentAgainAndWritesOnce() {
    FaultyPorts ports = portsWith("LOCK_CONFLICT@0:0");
    long epoch = ports.createSession(SESSION).epoch();
    ProducerPushOutcome outcome =
        new PushThroughProducerSession(ports).push(SESSION, epoch, 0, rows(0, 2), Optional.empty());
    assertEquals(1, faults.fired(SimFault.LOCK_CONFLICT), "the conflict was injected");
    assertEquals(ProducerPushOutcome.Kind.WRITTEN, outcome.kind());
    assertEquals(2, outputRows());
  }

  @Test
  void aSessionTakenOverFencesThePushWithTheClustersOwn3102() {
    FaultyPorts ports = portsWith("SESSION_TAKEN_OVER@0:0");
    long epoch = ports.createSession(SESSION).epoch();
    PushThroughProducerSession pushes = new PushThroughProducerSession(ports);
    assertThrows(
        ProducerFencedException.class,
        () -> pushes.push(SESSION, epoch, 0, rows(0, 2), Optional.empty()));
    assertEquals(0, outputRows());
    // The writer that took over pushes at the new epoch.
    long newer = ports.createSession(SESSION).epoch();
    assertTrue(newer > epoch + 1, "two creations since: " + newer);
    pushes.push(SESSION, newer, 0, rows(0, 2), Optional.of(Map.of("source_row_index", 1L)));
    assertEquals(2, outputRows());
  }
}
