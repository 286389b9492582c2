package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.simulation.check.Ledger;
import io.ytstream.simulation.check.Violation;
import io.ytstream.simulation.check.Violations;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * What both runtimes' checker hooks share: the one reference model, {@link Ledger}, filled from the
 * cluster's own state (the rows produced, the consumer as the cluster holds it), and the run's
 * {@link Violations}. The micro-batch's {@link Verifier} and Real-time Mode's {@link
 * RealTimeOutput} add what their runtime tells.
 */
abstract class RunChecks {

  final Ledger ledger;
  final Violations out;
  private final SimCluster cluster;
  private final List<QueueId> queues;
  private final List<PartitionId> partitions;
  private final ToIntFunction<PartitionId> ordinal;
  private long[] consumerCache;
  private long consumerCacheStamp;

  RunChecks(
      SimCluster cluster,
      List<QueueId> queues,
      List<PartitionId> partitions,
      ToIntFunction<PartitionId> ordinal,
      Consumer<String> trace) {
    this.cluster = cluster;
    this.queues = queues;
    this.partitions = partitions;
    this.ordinal = ordinal;
    this.ledger = new Ledger(partitions.size());
    this.out = new Violations(trace);
  }

  void recordInput(int ordinal, long value) {
    ledger.produce(ordinal, value);
  }

  long inputCount(int ordinal) {
    return ledger.produced(ordinal);
  }

  long rowsIn() {
    return ledger.rowsIn();
  }

  List<Violation> violations() {
    return out.all();
  }

  boolean failed() {
    return out.any();
  }

  String name(int ordinal) {
    return partitions.get(ordinal).toString();
  }

  /**
   * The consumer's offsets by partition ordinal. Asked after most steps, so the last answer is kept
   * until the consumer table is written again.
   */
  long[] consumer() {
    long stamp = cluster.consumerStamp(Workload.CONSUMER);
    if (consumerCache == null || stamp != consumerCacheStamp) {
      long[] c = new long[partitions.size()];
      for (QueueId q : queues) {
        StreamOffsets offsets = cluster.ports().consumerOffsets().read(Workload.CONSUMER, q);
        for (int i = 0; i < offsets.size(); i++) {
          int o = ordinal.applyAsInt(offsets.partitionAt(i));
          if (o >= 0) {
            c[o] = offsets.offsetAt(i);
          }
        }
      }
      consumerCache = c;
      consumerCacheStamp = stamp;
    }
    return consumerCache.clone();
  }
}
