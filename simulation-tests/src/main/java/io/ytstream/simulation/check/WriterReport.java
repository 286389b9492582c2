package io.ytstream.simulation.check;

import io.ytstream.application.BatchShareOutcome;
import io.ytstream.core.delivery.BatchShareDecision;
import java.util.Arrays;
import java.util.Optional;

/**
 * A writer task's report disagrees with what it was handed: the rows per output tablet its commit
 * message carries against the tablets the job chose or, without a choice, the rule that places row
 * k of task p on tablet (p + k) mod tablets, or a producer share's outcome against the rows that
 * landed and what its decision calls for.
 */
public final class WriterReport {

  public static final Property PROPERTY =
      new Property("WriterReport", "writer report disagrees with its rows");

  private WriterReport() {}

  /**
   * A writer task committed: it was handed a row for each of {@code chosen}, the tablet the job
   * chose for it or -1 where the writer places it, and its report counts {@code rowsPerTablet} (one
   * counter for a sorted output).
   */
  public static void committed(
      Violations out, int taskPartition, int[] chosen, long[] rowsPerTablet) {
    long[] want = new long[rowsPerTablet.length];
    for (int k = 0; k < chosen.length; k++) {
      int tablet =
          chosen[k] >= 0
              ? chosen[k]
              : (int) Math.floorMod(taskPartition + (long) k, (long) want.length);
      want[tablet]++;
    }
    if (!Arrays.equals(want, rowsPerTablet)) {
      out.add(
          PROPERTY,
          "task "
              + taskPartition
              + " wrote "
              + chosen.length
              + " rows and reports "
              + Arrays.toString(rowsPerTablet)
              + " per tablet, expected "
              + Arrays.toString(want));
    }
  }

  /**
   * Task {@code taskPartition}'s producer writer committed {@code handed} rows with {@code outcome}
   * (what the Spark writer logs and reports), and the output grew by {@code added} rows: the rows
   * it says it wrote are those that landed, and they and the rows it says were already there are
   * what its decision calls for (all handed rows pushed, or all already pushed, or none either way
   * when the session holds another share of the batch or a later batch).
   */
  public static void share(
      Violations out,
      int taskPartition,
      int handed,
      long added,
      Optional<BatchShareOutcome> outcome) {
    String wrong;
    if (outcome.isEmpty()) {
      wrong = handed == 0 && added == 0 ? null : "no outcome";
    } else {
      BatchShareOutcome o = outcome.get();
      BatchShareDecision.Action action = o.decision().action();
      long written = action == BatchShareDecision.Action.PUSH ? (long) handed : 0L;
      long skipped = action == BatchShareDecision.Action.ALREADY_PUSHED ? (long) handed : 0L;
      wrong =
          o.rowCount() == handed
                  && o.writtenRowCount() == added
                  && o.writtenRowCount() == written
                  && o.skippedRowCount() == skipped
              ? null
              : action
                  + ", "
                  + o.rowCount()
                  + " rows, "
                  + o.writtenRowCount()
                  + " written, "
                  + o.skippedRowCount()
                  + " skipped";
    }
    if (wrong != null) {
      out.add(
          PROPERTY,
          "task "
              + taskPartition
              + " was handed "
              + handed
              + " rows, the output grew by "
              + added
              + ", and its share reports "
              + wrong);
    }
  }
}
