package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Producer mode's own invariants see what they name, on a hand-made output queue and producer: rows
 * of a partition out of source order, a session that went back, and a user_meta ahead of the
 * output. (The mutant test proves the last two in whole runs; no shipped step can reorder a
 * partition's rows, so this is where the order check shows it is not blind.)
 */
class ProducerInvariantsTest {

  /** Input values every producer query keeps one output row of (a filter drops multiples of 3). */
  private static final long[] INPUT = {1, 2, 4, 5};

  private final Workload w = Workload.forSeed(1, SimMode.PRODUCER, 1, 5);
  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private final SimContext ctx =
      new SimContext(w, cluster, new FaultClock(FaultSchedule.parse("")), Mutant.NONE, 0, false);
  private final Verifier verifier = new Verifier(ctx);
  private final PartitionId partition = w.partitions().get(0);
  private final ProducerSessionId session =
      SourceRowPushes.session(partition.queue().key(), partition.index());

  ProducerInvariantsTest() {
    ctx.verifier = verifier;
    for (var q : w.queues()) {
      cluster.createQueue(q, w.initialPartitions(q));
    }
    cluster.createConsumer(Workload.CONSUMER, w.queues());
    cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), w.outputTablets());
    cluster.createQueueProducer(Workload.PRODUCER);
    for (long v : INPUT) {
      verifier.recordInput(0, v);
    }
  }

  /** The output row of source row {@code r} of the partition, in the output queue's tablet 0. */
  private Row output(long r) {
    long v = w.query().outputValue(INPUT[(int) r], 0);
    return Row.of("p", 0L, "r", r, "i", 0L, "v", v, "$tablet_index", 0L);
  }

  private Set<Verifier.Invariant> violated() {
    Set<Verifier.Invariant> found = new TreeSet<>();
    verifier.afterStep(false);
    verifier.violations().forEach(v -> found.add(v.invariant()));
    return found;
  }

  private void push(long epoch, long first, List<Row> rows, long metaRow) {
    cluster
        .ports()
        .queueProducers()
        .push(
            ProducerPush.numberedFrom(session, epoch, first, rows)
                .withUserMeta(
                    Map.of(
                        "source_queue",
                        partition.queue().key(),
                        "source_tablet_index",
                        (long) partition.index(),
                        "source_row_index",
                        metaRow)));
  }

  @Test
  void aPartitionsRowsOutOfSourceOrderViolateOutputOrder() {
    long epoch = cluster.ports().queueProducers().createSession(session).epoch();
    List<Row> rows = new ArrayList<>(List.of(output(1), output(0)));
    push(epoch, 0, rows, 1);
    assertEquals(Set.of(Verifier.Invariant.OUTPUT_ORDER), violated());
  }

  @Test
  void rowsInSourceOrderKeepEveryProducerInvariant() {
    long epoch = cluster.ports().queueProducers().createSession(session).epoch();
    push(epoch, 0, List.of(output(0), output(1)), 1);
    verifier.afterStep(false);
    push(epoch, 2, List.of(output(2)), 2);
    assertEquals(Set.of(), violated());
  }

  @Test
  void aRemovedSessionViolatesSessionMonotonic() {
    long epoch = cluster.ports().queueProducers().createSession(session).epoch();
    push(epoch, 0, List.of(output(0), output(1)), 1);
    verifier.afterStep(false);
    cluster.ports().queueProducers().removeSession(session);
    cluster.ports().queueProducers().createSession(session);
    verifier.afterStep(false);
    assertEquals(Set.of(Verifier.Invariant.SESSION_MONOTONIC), violated());
  }

  @Test
  void aUserMetaAheadOfTheOutputViolatesUserMetaMatchesOutput() {
    long epoch = cluster.ports().queueProducers().createSession(session).epoch();
    push(epoch, 0, List.of(output(0)), 3);
    assertEquals(Set.of(Verifier.Invariant.USER_META_MATCHES_OUTPUT), violated());
  }
}
