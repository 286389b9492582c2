package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.application.PushBatchShare;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.NonmonotonicSend;
import io.ytstream.simulation.check.NonmonotonicSequence;
import io.ytstream.simulation.check.UserMetaMatchesOutput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Producer mode's own invariants see what they name, on a hand-made output queue and producer
 * written through the shipped {@link PushBatchShare} (or around it): rows of a partition out of
 * source order, a session that went back, a user_meta that disagrees with the session's numbers or
 * the checkpoint. No shipped step can reorder a partition's rows, so this is where the order check
 * shows it is not blind.
 */
class ProducerInvariantsTest {

  /**
   * Input values every producer query keeps a first output row of (a filter drops multiples of 3).
   */
  private static final long[] INPUT = {1, 2, 4, 5};

  private final Workload w = Workload.forSeed(1, SimMode.PRODUCER, 1, 5);
  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private final SimContext ctx =
      new SimContext(w, cluster, new FaultClock(FaultSchedule.parse("")), Mutant.NONE, 0, 0, false);
  private final Verifier verifier = new Verifier(ctx);
  private final PartitionId partition = w.partitions().get(0);
  private final PushBatchShare shares =
      new PushBatchShare(cluster.ports().queueProducers(), cluster.ports().transactions());

  ProducerInvariantsTest() {
    ctx.verifier = verifier;
    for (var q : w.queues()) {
      cluster.createQueue(q, w.initialPartitions(q));
    }
    cluster.createConsumer(Workload.CONSUMER, w.queues());
    cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
    cluster.createQueueProducer(Workload.PRODUCER);
    cluster.ports().checkpoints().createDirectories(Workload.CHECKPOINT.child("offsets"));
    for (long v : INPUT) {
      verifier.recordInput(0, v);
    }
  }

  /** The first output row of source row {@code r} of the partition, in the output's tablet 0. */
  private Row output(long r) {
    long v = w.query().outputValue(INPUT[(int) r], 0);
    return Row.of("p", 0L, "r", r, "i", 0L, "v", v, "$tablet_index", 0L);
  }

  /** Logs {@code offsets/batch} with the partition ending at {@code end}, as Spark does. */
  private StreamOffsets logBatch(long batch, long end) {
    StreamOffsets offsets = StreamOffsets.of(Map.of(partition, end));
    YPath log = Workload.CHECKPOINT.child("offsets").child(Long.toString(batch));
    cluster
        .ports()
        .checkpoints()
        .writeFile(log, OffsetLogEntry.of(offsets).getBytes(StandardCharsets.UTF_8), false);
    return offsets;
  }

  private void pushShare(long batch, long end, List<Row> rows) {
    StreamOffsets offsets = logBatch(batch, end);
    PushBatchShare.OpenSession s =
        shares.open(Workload.PRODUCER, Workload.OUTPUT, Driver.QUERY_ID, 0);
    shares.push(s, batch, rows, 100_000, Optional.of(offsets));
  }

  private Set<String> violated() {
    verifier.afterStep(false);
    Set<String> found = new TreeSet<>();
    verifier.violations().forEach(v -> found.add(v.property().name()));
    return found;
  }

  @Test
  void sharesInSourceOrderKeepEveryProducerInvariant() {
    pushShare(0, 2, List.of(output(0), output(1)));
    verifier.afterStep(false);
    pushShare(1, 3, List.of(output(2)));
    assertEquals(Set.of(), violated());
  }

  @Test
  void aPartitionsRowsOutOfSourceOrderViolateOutputOrder() {
    pushShare(0, 2, List.of(output(1), output(0)));
    assertEquals(Set.of(NonmonotonicSend.PROPERTY.name()), violated());
  }

  @Test
  void aRemovedSessionViolatesSessionMonotonic() {
    pushShare(0, 2, List.of(output(0), output(1)));
    verifier.afterStep(false);
    var session = PushBatchShare.sessionOf(Workload.PRODUCER, Workload.OUTPUT, Driver.QUERY_ID, 0);
    cluster.ports().queueProducers().removeSession(session);
    cluster.ports().queueProducers().createSession(session);
    // The removal also dropped the user_meta that accounted for the output's rows.
    assertEquals(
        Set.of(NonmonotonicSequence.PROPERTY.name(), UserMetaMatchesOutput.PROPERTY.name()),
        violated());
  }

  @Test
  void aPushWithoutUserMetaViolatesUserMetaMatchesOutput() {
    var session = PushBatchShare.sessionOf(Workload.PRODUCER, Workload.OUTPUT, Driver.QUERY_ID, 0);
    long epoch = cluster.ports().queueProducers().createSession(session).epoch();
    cluster
        .ports()
        .queueProducers()
        .push(ProducerPush.numberedFrom(session, epoch, 0, List.of(output(0))));
    assertEquals(Set.of(UserMetaMatchesOutput.PROPERTY.name()), violated());
  }

  @Test
  void aUserMetaWithOtherOffsetsThanTheCheckpointsViolatesUserMetaMatchesOutput() {
    logBatch(0, 2);
    PushBatchShare.OpenSession s =
        shares.open(Workload.PRODUCER, Workload.OUTPUT, Driver.QUERY_ID, 0);
    StreamOffsets other = StreamOffsets.of(Map.of(partition, 5L));
    shares.push(s, 0, List.of(output(0), output(1)), 100_000, Optional.of(other));
    assertEquals(Set.of(UserMetaMatchesOutput.PROPERTY.name()), violated());
  }
}
