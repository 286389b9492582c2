package io.ytstream.simulation.check;

import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;

/** After recovery, the checkpoint and the consumer tell different stories. */
public final class CheckpointConsumerDisagree {

  public static final Property PROPERTY =
      new Property("CheckpointConsumerDisagree", "checkpoint and consumer disagree");

  private CheckpointConsumerDisagree() {}

  /**
   * After a driver recovered by decision {@code d}: the consumer {@code c} (by ordinal over {@code
   * partitions}) agrees with the checkpoint's {@code start} and {@code end}.
   */
  public static void recovered(
      Violations out,
      CheckpointRecovery.Decision d,
      StreamOffsets start,
      StreamOffsets end,
      long[] c,
      List<PartitionId> partitions,
      boolean transactional) {
    if (d.action() == CheckpointRecovery.Action.START_FRESH) {
      return;
    }
    for (int o = 0; o < partitions.size(); o++) {
      PartitionId p = partitions.get(o);
      long s = start.getOrDefault(p, 0);
      long e = end.getOrDefault(p, 0);
      boolean ok;
      if (d.action() == CheckpointRecovery.Action.CONTINUE) {
        // start..end are the ends of the two newest committed batches.
        ok = transactional ? c[o] == e : c[o] >= s && c[o] <= e;
      } else {
        // RERUN of [start, end): applied or not (transactional); level with start otherwise.
        ok = transactional ? c[o] == s || c[o] == e : c[o] == s;
      }
      if (!ok) {
        out.add(
            PROPERTY,
            d.action()
                + " batch "
                + d.batch()
                + ": consumer of "
                + p
                + " is at "
                + c[o]
                + ", checkpoint says ["
                + s
                + ", "
                + e
                + "]");
      }
    }
  }
}
