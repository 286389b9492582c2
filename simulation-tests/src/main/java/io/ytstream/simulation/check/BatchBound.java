package io.ytstream.simulation.check;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.TriggerLimit;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A batch over its bounds: a task read more than {@code max_rows_per_partition} rows of a partition
 * (rows read, not the range's width), a batch planned more rows than {@code max_rows_per_trigger}
 * or more bytes than {@code max_bytes_per_trigger} in more than one row, or a commit reached the
 * cluster over its per-tablet row limit. The transactional sink must refuse such a batch itself,
 * and a user reads the refusal to fix the query, so its figures are checked by property (the
 * tablets it asks for take the rows, the {@code max_rows_per_partition} it proposes fits or is
 * smaller), not by the sink's formula.
 */
public final class BatchBound {

  public static final Property PROPERTY = new Property("BatchBound", "batch over its row bound");

  private BatchBound() {}

  /** A task read {@code rowsRead} rows of {@code range}. */
  public static void rangeRead(Violations out, Object range, long rowsRead, long maxRows) {
    if (rowsRead > maxRows) {
      out.add(
          PROPERTY, range + " read " + rowsRead + " rows, max_rows_per_partition is " + maxRows);
    }
  }

  /**
   * The source planned a batch of {@code rows} rows from {@code start}: under {@code
   * max_rows_per_trigger} at most that many over all partitions, and under {@code
   * max_bytes_per_trigger} at most that many bytes unless it is one row (every queue row weighs
   * {@code rowWeight}); a batch that places new partitions holds none.
   */
  public static void planned(
      Violations out,
      StreamOffsets start,
      PlanMicroBatch.PlannedEnd planned,
      long rows,
      TriggerLimit trigger,
      long rowWeight) {
    StreamOffsets end = planned.end();
    if ((trigger.maxRows().isEmpty() && trigger.maxBytes().isEmpty())
        || planned.placesNewPartitions()) {
      return;
    }
    // Every queue row weighs the same, so a batch's bytes are its rows times that; only a batch
    // of one row may weigh more than the cap.
    long bytes = rows * rowWeight;
    if (trigger.maxBytes().isPresent() && bytes > trigger.maxBytes().getAsLong() && rows > 1) {
      out.add(
          PROPERTY,
          "a batch of "
              + rows
              + " rows ("
              + bytes
              + " bytes) from "
              + start
              + " to "
              + end
              + ", max_bytes_per_trigger is "
              + trigger.maxBytes().getAsLong());
    }
    if (trigger.maxRows().isEmpty()) {
      return;
    }
    long max = trigger.maxRows().getAsLong();
    if (rows > max) {
      out.add(
          PROPERTY,
          "a batch of "
              + rows
              + " rows from "
              + start
              + " to "
              + end
              + ", max_rows_per_trigger is "
              + max);
    }
  }

  /** What {@link #tabletRefusalError} and the others found wrong in batch {@code batch}. */
  public static void refusal(Violations out, long batch, String wrong, String message) {
    if (wrong != null) {
      out.add(PROPERTY, "batch " + batch + wrong + ": " + message);
    }
  }

  /**
   * The refusal of a batch with {@code perTablet[t]} rows for tablet t of the output, each of which
   * takes {@code maxRowsPerTablet}; null when it is right.
   */
  public static String tabletRefusalError(
      long[] perTablet,
      long maxRowsPerTablet,
      StreamOffsets start,
      StreamOffsets end,
      String message) {
    long total = 0;
    long worst = 0;
    for (long rows : perTablet) {
      total += rows;
      worst = Math.max(worst, rows);
    }
    if (worst <= maxRowsPerTablet) {
      return " was refused as too large with "
          + worst
          + " rows for a tablet that takes "
          + maxRowsPerTablet;
    }
    String wrong =
        tabletAdviceError(total, worst, perTablet.length, maxRowsPerTablet, start, end, message);
    return wrong == null ? null : "'s refusal " + wrong;
  }

  /**
   * The refusal of a batch the cluster refused with {@code worst} rows for one tablet, where the
   * sink was told the cluster takes {@code setting} (more than the cluster's {@code clusterLimit});
   * null when it is right: it names the rows in the fullest tablet, the setting and its value, a
   * bound on the cluster's limit the refusal proves, and that only a reshard helps the logged
   * batch.
   */
  public static String clusterRefusalError(
      long worst, long setting, long clusterLimit, String message) {
    String text = message == null ? "" : message;
    if (worst <= clusterLimit || worst > setting) {
      return " was refused by the cluster with "
          + worst
          + " rows for a tablet, the cluster taking "
          + clusterLimit
          + " and the sink told "
          + setting;
    }
    if (!text.contains(", " + worst + " of them into one tablet,")
        || !text.contains("told it allows " + setting + " rows per tablet")
        || !text.contains(
            "Set spark.yt.write.maxRowsPerTabletPerTransaction to the cluster's limit")
        || !text.contains("at most " + (worst - 1) + ",")) {
      return "'s refusal by the cluster does not name the tablet's rows, the setting with its value"
          + " and a limit below the rows refused";
    }
    if (!text.endsWith("for this one, reshard the output.")) {
      return "'s refusal by the cluster does not say that only a reshard helps the logged batch";
    }
    return null;
  }

  private static final Pattern MEMORY =
      Pattern.compile(
          "too large for the executors' memory.*"
              + "read up to (\\d+) rows from each of (\\d+) queue partitions.*"
              + "Lower option max_rows_per_partition(?: \\(now at least (\\d+); try (\\d+)\\))?,"
              + " or give executors more memory \\(spark\\.executor\\.memory\\)",
          Pattern.DOTALL);

  /**
   * The refusal of a batch ({@code start} to {@code end}) one of whose tasks kept none of its rows
   * ({@code notKept}); null when it is right: it says why the task stopped, describes the batch's
   * ranges, and proposes a {@code max_rows_per_partition} of at least 1 and below the largest range
   * (when that has more than one row), or more executor memory.
   */
  public static String memoryRefusalError(
      String notKept, StreamOffsets start, StreamOffsets end, String message) {
    String text = message == null ? "" : message;
    Matcher m = MEMORY.matcher(text);
    if (!m.find()) {
      return "'s refusal does not name the executors' memory, the ranges, max_rows_per_partition"
          + " and spark.executor.memory";
    }
    if (!text.contains(notKept)) {
      return "'s refusal does not say why the task stopped";
    }
    if (!text.endsWith(
        "for this one, give executors more memory, or set option max_rows_per_task to run it in"
            + " smaller tasks.")) {
      return "'s refusal does not say that only more memory or smaller tasks help the logged"
          + " batch";
    }
    long largest = Long.parseLong(m.group(1));
    long partitions = Long.parseLong(m.group(2));
    long[] want = largestRange(start, end);
    if (largest != want[0] || partitions != want[1]) {
      return "'s refusal describes " + partitions + " ranges of up to " + largest + " rows";
    }
    if ((m.group(3) != null) != (largest > 1)) {
      return "'s refusal proposes a max_rows_per_partition for ranges of " + largest + " rows";
    }
    if (m.group(3) != null) {
      long now = Long.parseLong(m.group(3));
      long proposed = Long.parseLong(m.group(4));
      if (now != largest || proposed < 1 || proposed >= largest) {
        return "'s refusal proposes max_rows_per_partition=" + proposed + " (now " + now + ")";
      }
    }
    return null;
  }

  /** The batch's largest range in rows and how many of its ranges hold rows. */
  private static long[] largestRange(StreamOffsets start, StreamOffsets end) {
    long largest = 0;
    long partitions = 0;
    for (int i = 0; i < end.size(); i++) {
      OptionalLong from = start.get(end.partitionAt(i));
      if (from.isPresent() && end.offsetAt(i) > from.getAsLong()) {
        largest = Math.max(largest, end.offsetAt(i) - from.getAsLong());
        partitions++;
      }
    }
    return new long[] {largest, partitions};
  }

  private static final Pattern REFUSAL =
      Pattern.compile(
          "would write (\\d+) rows into .* (\\d+) of them into one tablet.*"
              + "needs at least (\\d+) tablets \\(it has (\\d+)\\).*"
              + "read up to (\\d+) rows from each of (\\d+) queue partitions.*"
              + "max_rows_per_partition=(\\d+) fits the output",
          Pattern.DOTALL);

  /**
   * What is wrong in the advice of a too-large refusal, or null: the rows it names are the batch's,
   * in all and in its fullest tablet, of the output's tablets; the tablets it asks for take the
   * rows and are more than the output has, one fewer would not do (unless one more than the output
   * has is the least); the ranges it describes are the batch's; and the {@code
   * max_rows_per_partition} it proposes is the largest whose batch of one row per row read fits the
   * output, at least 1.
   */
  private static String tabletAdviceError(
      long rows,
      long worstTablet,
      int outputTablets,
      long limit,
      StreamOffsets start,
      StreamOffsets end,
      String message) {
    Matcher m = REFUSAL.matcher(message == null ? "" : message);
    if (!m.find()) {
      return "does not name the rows, the tablets needed and a max_rows_per_partition that fits";
    }
    if (!message.endsWith("for this one, reshard the output.")) {
      return "does not say that only a reshard helps the logged batch";
    }
    long total = Long.parseLong(m.group(1));
    long worst = Long.parseLong(m.group(2));
    long needed = Long.parseLong(m.group(3));
    long tablets = Long.parseLong(m.group(4));
    long largest = Long.parseLong(m.group(5));
    long partitions = Long.parseLong(m.group(6));
    long fits = Long.parseLong(m.group(7));
    long[] want = largestRange(start, end);
    long wantLargest = want[0];
    long wantPartitions = want[1];
    if (total != rows || worst != worstTablet || tablets != outputTablets) {
      return "names " + total + " rows, " + worst + " in one tablet of " + tablets;
    }
    if (needed <= tablets
        || needed * limit < total
        || (needed > tablets + 1 && (needed - 1) * limit >= total)) {
      return "asks for " + needed + " tablets";
    }
    if (largest != wantLargest || partitions != wantPartitions) {
      return "describes " + partitions + " ranges of up to " + largest + " rows";
    }
    long room = limit * tablets;
    if (fits < 1 || (fits > 1 && fits * partitions > room) || (fits + 1) * partitions <= room) {
      return "proposes max_rows_per_partition=" + fits;
    }
    return null;
  }
}
