package io.ytstream.simulation.check;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueueRow;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/** A static read returned a row twice, out of order, with another value, or missed one. */
public final class StaticReadMismatch {

  public static final Property PROPERTY =
      new Property("StaticReadMismatch", "static read disagrees with the queue");

  private StaticReadMismatch() {}

  /**
   * A static read of {@code queues} from earliest to latest returned {@code read}, the rows of all
   * its tasks by partition, with no rows arriving or trimmed meanwhile: every partition's rows from
   * its first readable row to its end, each once, in row order, with the value produced there.
   */
  public static void read(
      Violations out,
      QueueMetadata metadata,
      List<QueueId> queues,
      Map<PartitionId, List<QueueRow>> read,
      ToIntFunction<PartitionId> ordinal,
      Ledger ledger) {
    for (QueueId q : queues) {
      for (PartitionBounds b : metadata.partitions(q)) {
        PartitionId p = new PartitionId(q, b.index());
        int o = ordinal.applyAsInt(p);
        List<QueueRow> rows = read.getOrDefault(p, List.of());
        long expected = b.trimmedRowCount();
        for (QueueRow row : rows) {
          long r = row.rowIndex();
          if (r != expected
              || r >= ledger.produced(o)
              || (Long) row.data().get("v") != ledger.value(o, r)) {
            out.add(
                PROPERTY,
                p
                    + " returned row "
                    + r
                    + " = "
                    + row.data()
                    + " where row "
                    + expected
                    + " was due");
            return;
          }
          expected++;
        }
        if (expected != b.totalRowCount()) {
          out.add(PROPERTY, p + " returned rows up to " + expected + " of " + b.totalRowCount());
          return;
        }
      }
    }
  }
}
