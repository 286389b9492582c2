package io.ytstream.simulation.check;

import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The sink's commit returned an outcome other than what it did: committed, though an earlier
 * attempt had applied the batch (the consumer already stood at its end), or applied earlier, though
 * it committed now; or it returned with its transaction still open, or the consumer short of the
 * batch's end; or it failed as fenced while the consumer stands at the batch's start, or a fenced
 * consumer's error does not say where the partition stands. The Spark adapter logs the outcome: an
 * operator reading "applied by an earlier attempt" must be able to trust it.
 */
public final class CommitOutcome {

  public static final Property PROPERTY =
      new Property("CommitOutcome", "commit outcome misreported");

  private static final Pattern FENCED_AT =
      Pattern.compile(
          "was moved by another writer: \\S+ is at \\d+, expected \\d+ or \\d+|cannot be advanced: .+");

  private CommitOutcome() {}

  /**
   * The sink's commit of batch {@code batch} ({@code start} to {@code end}) failed as fenced by
   * another writer: the consumer, read now, must stand elsewhere than at the batch's start, or the
   * user is sent after a writer that does not exist while the batch simply did not land.
   */
  public static void sinkFenced(
      Violations out,
      long batch,
      StreamOffsets start,
      StreamOffsets end,
      long[] now,
      ToIntFunction<PartitionId> ordinal,
      RuntimeException e) {
    boolean rows = false;
    boolean atStart = true;
    for (int i = 0; i < end.size(); i++) {
      int o = ordinal.applyAsInt(end.partitionAt(i));
      OptionalLong from = start.get(end.partitionAt(i));
      if (o < 0 || from.isEmpty() || end.offsetAt(i) == from.getAsLong()) {
        continue;
      }
      rows = true;
      atStart &= now[o] == from.getAsLong();
    }
    if (rows && atStart) {
      out.add(
          PROPERTY,
          "batch "
              + batch
              + " failed as fenced, but the consumer stands at the batch's start "
              + Arrays.toString(now)
              + ": "
              + e.getMessage());
    }
  }

  /**
   * Batch {@code batch} ({@code start} to {@code end}) committed through the sink with {@code
   * result}, the consumer at {@code before} (by ordinal) when the commit began.
   */
  public static void sinkCommitted(
      Violations out,
      long batch,
      StreamOffsets start,
      StreamOffsets end,
      long[] before,
      long[] after,
      ToIntFunction<PartitionId> ordinal,
      Object tx,
      boolean transactionOpen,
      CommitTransactionalSink.Result result) {
    boolean appliedBefore = true;
    boolean fromStart = true;
    boolean reached = true;
    boolean rows = false;
    for (int i = 0; i < end.size(); i++) {
      int o = ordinal.applyAsInt(end.partitionAt(i));
      OptionalLong from = start.get(end.partitionAt(i));
      if (o < 0 || from.isEmpty()) {
        continue; // a partition the batch places at its start reads no rows
      }
      long upper = end.offsetAt(i);
      long lower = from.getAsLong();
      rows |= upper > lower;
      appliedBefore &= before[o] == upper;
      fromStart &= before[o] == lower;
      reached &= after[o] >= upper; // a driver that took over mid-commit may have gone on
    }
    String wrong = null;
    if (result == null) {
      wrong = "no outcome";
    } else if (transactionOpen) {
      wrong = result + ", but its transaction " + tx + " is still open";
    } else {
      wrong =
          switch (result) {
            case COMMITTED ->
                !fromStart || !reached
                    ? "COMMITTED, but the consumer went from "
                        + Arrays.toString(before)
                        + " to "
                        + Arrays.toString(after)
                        + " for a batch from "
                        + start
                        + " to "
                        + end
                    : null;
            case ALREADY_APPLIED ->
                !appliedBefore
                    ? "ALREADY_APPLIED, but the consumer stood at "
                        + Arrays.toString(before)
                        + ", short of the batch's end "
                        + end
                    : null;
            case COMMITTED_WITHOUT_SOURCE ->
                rows
                    ? "COMMITTED_WITHOUT_SOURCE for a batch that read rows: " + start + " to " + end
                    : null;
          };
    }
    if (wrong != null) {
      out.add(PROPERTY, "batch " + batch + ": " + wrong);
    }
  }

  /**
   * {@code step} failed because another writer moved the consumer at {@code consumerPath}: the
   * error must name the consumer and say where the partition stands against what the advance
   * expected, or why it cannot be advanced, for the user to find the other writer.
   */
  public static void consumerFenced(
      Violations out, String step, String message, String consumerPath) {
    String m = String.valueOf(message);
    if (!m.contains(consumerPath) || !FENCED_AT.matcher(m).find()) {
      out.add(PROPERTY, step + " failed as fenced without saying where the consumer stands: " + m);
    }
  }
}
