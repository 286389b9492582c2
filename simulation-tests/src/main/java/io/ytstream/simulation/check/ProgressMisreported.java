package io.ytstream.simulation.check;

import io.ytstream.application.MeasureLag;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The source's progress report after a batch disagrees with the queue: it names more rows behind,
 * or a later end, than the queue holds; its rows behind disagree with its own latest offsets and
 * the batch's end (min, max, total, average); its {@code lostRows} is not the trimmed rows the
 * driver's plans skipped; the lag per partition it keeps for the metrics plugin disagrees with the
 * report; its bytes behind are not its rows behind times the one weight every simulated queue row
 * has, or are missing where they could be read; its seconds behind, where the queues declare {@code
 * $timestamp}, are not the newest row's second minus the oldest unread row's. Not judged after a
 * queue was re-created (its ends are another queue's).
 */
public final class ProgressMisreported {

  public static final Property PROPERTY =
      new Property("ProgressMisreported", "progress report disagrees with the queue");

  private final Violations out;
  private final QueueMetadata metadata;
  private final QueuePartitionReader reader;
  private final ConsumerId consumer;
  private final List<QueueId> queues;
  private final ToIntFunction<PartitionId> ordinal;
  private final int partitionCount;
  private final long rowWeight;
  private final boolean timestamps;

  /** The source told {@link #lagUnreadable} since the last report's lag was checked. */
  private boolean lagUnreadable;

  /** The metrics of the live driver's last progress report, for {@link #lastLag}. */
  private Map<String, String> reportedMetrics = Map.of();

  /**
   * @param ordinal a partition's place in the workload's list, -1 for none
   * @param rowWeight the data weight every queue row has
   * @param timestamps whether the queues declare {@code $timestamp}
   */
  public ProgressMisreported(
      Violations out,
      QueueMetadata metadata,
      QueuePartitionReader reader,
      ConsumerId consumer,
      List<QueueId> queues,
      ToIntFunction<PartitionId> ordinal,
      int partitionCount,
      long rowWeight,
      boolean timestamps) {
    this.out = out;
    this.metadata = metadata;
    this.reader = reader;
    this.consumer = consumer;
    this.queues = List.copyOf(queues);
    this.ordinal = ordinal;
    this.partitionCount = partitionCount;
    this.rowWeight = rowWeight;
    this.timestamps = timestamps;
  }

  /**
   * The source's progress report after a batch: lostRows counts the trimmed rows the driver's plans
   * skipped, the latest offsets it saw are no further than the queue's ends now, and the rows
   * behind it reports are between 0 and what the queue now holds past the batch's end, and agree
   * with its latest offsets ({@link #checkLag}).
   */
  public void report(
      StreamOffsets end,
      Optional<StreamOffsets> latest,
      Map<String, String> metrics,
      long plannedLostRows,
      boolean zombie,
      boolean recreated) {
    if (zombie || latest.isEmpty()) {
      lagUnreadable = false; // no lag kept for onLastLag to check
    }
    if (zombie) {
      return; // a zombie's progress reaches nobody
    }
    reportedMetrics = metrics;
    if (!Long.toString(plannedLostRows).equals(metrics.get("lostRows"))) {
      out.add(
          ProgressMisreported.PROPERTY,
          "lostRows "
              + metrics.get("lostRows")
              + ", but this driver's plans skipped "
              + plannedLostRows
              + " trimmed rows");
    }
    long[] totals = new long[partitionCount];
    long actualBehind = 0;
    for (QueueId q : queues) {
      for (PartitionBounds b : metadata.partitions(q)) {
        PartitionId p = new PartitionId(q, b.index());
        int o = ordinal.applyAsInt(p);
        if (o >= 0) {
          totals[o] = b.totalRowCount();
          actualBehind += Math.max(0, b.totalRowCount() - end.getOrDefault(p, b.trimmedRowCount()));
        }
      }
    }
    if (latest.isPresent()) {
      StreamOffsets l = latest.get();
      for (int i = 0; i < l.size(); i++) {
        int o = ordinal.applyAsInt(l.partitionAt(i));
        if (o >= 0 && !recreated && l.offsetAt(i) > totals[o]) {
          out.add(
              ProgressMisreported.PROPERTY,
              l.partitionAt(i)
                  + " reported at "
                  + l.offsetAt(i)
                  + ", the queue ends at "
                  + totals[o]);
        }
      }
    }
    if (latest.isPresent() && !recreated) {
      checkLag(end, latest.get(), metrics);
    } else if (latest.isEmpty() && metrics.containsKey("totalRowsBehindLatest")) {
      out.add(
          ProgressMisreported.PROPERTY,
          "rows behind " + new TreeMap<>(metrics) + " but no latest offset reported");
    }
    String total = metrics.get("totalRowsBehindLatest");
    if (total != null && !recreated) {
      long behind = Long.parseLong(total);
      if (behind < 0 || behind > actualBehind) {
        out.add(
            ProgressMisreported.PROPERTY,
            "totalRowsBehindLatest "
                + behind
                + " after a batch ending at "
                + end
                + ", but the queue holds "
                + actualBehind
                + " rows past it");
      }
    }
  }

  /**
   * The rows behind in the progress report are those between the batch's end and the ends the
   * source reported seeing ({@code latest}): per partition {@code max(0, latest - end)}, with their
   * min, max, total and average over the partitions seen. Exact where every partition seen is in
   * the batch's end (a partition it does not name is measured from its first row, which the checker
   * does not know at that moment); the spread alone otherwise.
   */
  private void checkLag(StreamOffsets end, StreamOffsets latest, Map<String, String> metrics) {
    String total = metrics.get("totalRowsBehindLatest");
    if (total == null) {
      if (!latest.isEmpty()) {
        out.add(PROPERTY, "no rows behind reported, latest " + latest);
      }
      return;
    }
    long min = Long.parseLong(metrics.get("minRowsBehindLatest"));
    long max = Long.parseLong(metrics.get("maxRowsBehindLatest"));
    long sum = Long.parseLong(total);
    int n = latest.size();
    String avg = String.format(Locale.ROOT, "%.1f", (double) sum / n);
    boolean ok =
        min >= 0
            && min <= max
            && sum >= min * n
            && sum <= max * n
            && avg.equals(metrics.get("avgRowsBehindLatest"));
    boolean exact = true;
    long wantMin = Long.MAX_VALUE;
    long wantMax = 0;
    long wantSum = 0;
    for (int i = 0; i < n; i++) {
      PartitionId p = latest.partitionAt(i);
      if (end.get(p).isEmpty()) {
        exact = false;
        continue;
      }
      long behind = Math.max(0, latest.offsetAt(i) - end.getOrDefault(p, 0));
      wantMin = Math.min(wantMin, behind);
      wantMax = Math.max(wantMax, behind);
      wantSum += behind;
      if (latest.offsetAt(i) < end.getOrDefault(p, 0)) {
        ok = false; // the source saw fewer rows than the batch it planned ends at
      }
    }
    if (exact) {
      ok &= min == wantMin && max == wantMax && sum == wantSum;
    } else {
      ok &= sum >= wantSum;
    }
    // Every queue row weighs the same: bytes behind, where reported, are rows behind times that.
    String bytes = metrics.get("totalBytesBehindLatest");
    if (bytes != null) {
      long weight = rowWeight;
      ok &=
          Long.parseLong(bytes) == sum * weight
              && Long.parseLong(metrics.get("minBytesBehindLatest")) == min * weight
              && Long.parseLong(metrics.get("maxBytesBehindLatest")) == max * weight
              && String.format(Locale.ROOT, "%.1f", (double) sum * weight / n)
                  .equals(metrics.get("avgBytesBehindLatest"));
    }
    // Seconds behind are judged against the rows' timestamps after the report (lastLag).
    ok &= timestamps || !metrics.containsKey("avgSecondsBehindLatest");
    if (!ok) {
      out.add(
          ProgressMisreported.PROPERTY,
          "rows behind "
              + new TreeMap<>(metrics)
              + " after a batch ending at "
              + end
              + " with latest "
              + latest);
    }
  }

  /**
   * The source could not read the lag columns for its report. The cluster's errors (the schedule's
   * proxy errors) excuse that; any other failure is the source's own.
   */
  public void lagUnreadable(RuntimeException e) {
    lagUnreadable = true;
    if (!(e instanceof YtException)) {
      out.add(PROPERTY, "the lag columns could not be read: " + e);
    }
  }

  /**
   * The per-partition lag the source keeps for the engine's metrics after a report: the rows of
   * each partition of the batch's end are those between it and the latest offset reported.
   */
  public void lastLag(
      StreamOffsets end, StreamOffsets latest, Optional<MeasureLag.Lag> lag, boolean recreated) {
    boolean unreadable = lagUnreadable;
    lagUnreadable = false;
    if (recreated) {
      return;
    }
    if (lag.isEmpty()) {
      if (!latest.isEmpty() && !end.isEmpty()) {
        out.add(PROPERTY, "no lag kept after a report with " + latest);
      }
      return;
    }
    // The report's bytes behind are the kept lag's, whole: shown where every partition's are known.
    boolean shown =
        reportedMetrics.containsKey("minBytesBehindLatest")
            && reportedMetrics.containsKey("maxBytesBehindLatest")
            && reportedMetrics.containsKey("avgBytesBehindLatest")
            && reportedMetrics.containsKey("totalBytesBehindLatest");
    boolean known = everyPartitionHas(lag.get(), MeasureLag.PartitionLag::bytes);
    if (known != shown) {
      out.add(
          ProgressMisreported.PROPERTY,
          "every partition's bytes behind known: "
              + known
              + ", but the metrics "
              + new TreeMap<>(reportedMetrics)
              + (shown ? " show them" : " do not show them whole"));
      return;
    }
    if (!secondsShownAsKept(lag.get())) {
      return;
    }
    for (MeasureLag.PartitionLag p : lag.get().partitions()) {
      OptionalLong at = end.get(p.partition());
      OptionalLong seen = latest.get(p.partition());
      if (at.isPresent() && seen.isPresent()) {
        long want = Math.max(0, seen.getAsLong() - at.getAsLong());
        if (p.rows() != want) {
          out.add(
              ProgressMisreported.PROPERTY,
              p.partition() + " kept " + p.rows() + " rows behind, the report says " + want);
          return;
        }
      }
      if (at.isPresent() && !checkBytesBehind(p, at.getAsLong(), unreadable)) {
        return;
      }
    }
  }

  /**
   * The report's seconds behind are the kept lag's spread (min, max, average), shown exactly where
   * every partition's seconds are known.
   */
  private boolean secondsShownAsKept(MeasureLag.Lag lag) {
    String wrong = null;
    boolean shown =
        reportedMetrics.containsKey("minSecondsBehindLatest")
            && reportedMetrics.containsKey("maxSecondsBehindLatest")
            && reportedMetrics.containsKey("avgSecondsBehindLatest");
    boolean known = everyPartitionHas(lag, MeasureLag.PartitionLag::seconds);
    if (known != shown) {
      wrong = "every partition's seconds behind known: " + known;
    } else if (shown && !lag.partitions().isEmpty()) {
      long min = Long.MAX_VALUE;
      long max = 0;
      long sum = 0;
      for (MeasureLag.PartitionLag p : lag.partitions()) {
        long v = p.seconds().getAsLong();
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
      }
      String avg = String.format(Locale.ROOT, "%.1f", (double) sum / lag.partitions().size());
      if (!Long.toString(min).equals(reportedMetrics.get("minSecondsBehindLatest"))
          || !Long.toString(max).equals(reportedMetrics.get("maxSecondsBehindLatest"))
          || !avg.equals(reportedMetrics.get("avgSecondsBehindLatest"))) {
        wrong = "kept seconds behind min " + min + ", max " + max + ", avg " + avg;
      }
    }
    if (wrong != null) {
      out.add(
          ProgressMisreported.PROPERTY,
          wrong + ", but the metrics " + new TreeMap<>(reportedMetrics));
      return false;
    }
    return true;
  }

  /**
   * Whether the kept lag has a figure for every partition (and at least one partition), read from
   * the partitions themselves, each judged on its own below, not from the lag's own summary.
   */
  private static boolean everyPartitionHas(
      MeasureLag.Lag lag, Function<MeasureLag.PartitionLag, OptionalLong> figure) {
    if (lag.partitions().isEmpty()) {
      return false;
    }
    for (MeasureLag.PartitionLag p : lag.partitions()) {
      if (figure.apply(p).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Bytes behind, from {@code $cumulative_data_weight}, which every simulated queue declares: as
   * every queue row weighs the same, a partition's bytes behind are its rows behind times that
   * weight. They are unknown only where the last consumed row (the base of the difference) or the
   * newest row was trimmed, or where the lag columns could not be read for this report. Seconds
   * behind: as {@link #secondsBehindError} reads them from the queue where it declares {@code
   * $timestamp}, else none.
   */
  private boolean checkBytesBehind(MeasureLag.PartitionLag p, long offset, boolean unreadable) {
    String wrong = null;
    if (p.bytes().isPresent()) {
      long want = p.rows() * rowWeight;
      if (p.bytes().getAsLong() != want) {
        wrong = p.bytes().getAsLong() + " bytes behind for " + p.rows() + " rows, want " + want;
      }
    } else if (!unreadable && !baseOrNewestTrimmed(p.partition(), offset, offset + p.rows())) {
      wrong = "no bytes behind, though its last consumed row and its newest row are readable";
    }
    if (wrong == null && !timestamps && p.seconds().isPresent()) {
      wrong = p.seconds().getAsLong() + " seconds behind, but the queue declares no $timestamp";
    }
    if (wrong == null && timestamps) {
      wrong = secondsBehindError(p, offset, unreadable);
    }
    if (wrong != null) {
      out.add(PROPERTY, p.partition() + " kept " + wrong);
      return false;
    }
    return true;
  }

  /**
   * What is wrong with a partition's seconds behind, or null. They are the newest row's second
   * ({@code offset + rows - 1}, the source's end when it measured) minus the oldest unread row's
   * (the first readable at or after {@code offset}), at least 0; 0 with no rows behind; unknown
   * where either row was trimmed. Where rows at or after {@code offset} are trimmed by now, the
   * source may have measured before the trim, from an older row: then at least the figure now.
   */
  private String secondsBehindError(MeasureLag.PartitionLag p, long offset, boolean unreadable) {
    OptionalLong want = OptionalLong.empty();
    boolean trimmedSince = false;
    if (p.rows() == 0) {
      want = OptionalLong.of(0);
    } else {
      long newestIndex = offset + p.rows() - 1;
      List<QueueRow> oldest = reader.pull(consumer, p.partition(), offset, 1);
      List<QueueRow> newest = reader.pull(consumer, p.partition(), newestIndex, 1);
      trimmedSince = oldest.isEmpty() || oldest.get(0).rowIndex() > offset;
      if (!oldest.isEmpty()
          && !newest.isEmpty()
          && oldest.get(0).rowIndex() <= newestIndex
          && newest.get(0).rowIndex() == newestIndex) {
        want =
            OptionalLong.of(
                Math.max(
                    0,
                    YtTimestamps.toEpochSecond(newest.get(0).timestamp().getAsLong())
                        - YtTimestamps.toEpochSecond(oldest.get(0).timestamp().getAsLong())));
      }
    }
    boolean ok;
    if (p.seconds().isEmpty()) {
      ok = want.isEmpty() || unreadable || trimmedSince;
    } else if (trimmedSince) {
      ok = want.isEmpty() || p.seconds().getAsLong() >= want.getAsLong();
    } else {
      ok = p.seconds().equals(want);
    }
    return ok ? null : p.seconds() + " seconds behind for " + p.rows() + " rows, want " + want;
  }

  /** {@code end}: the partition's end as the source measured it (rows may have come since). */
  private boolean baseOrNewestTrimmed(PartitionId partition, long offset, long end) {
    for (PartitionBounds b : metadata.partitions(partition.queue())) {
      if (b.index() == partition.index()) {
        return (offset > 0 && offset - 1 < b.trimmedRowCount()) || b.trimmedRowCount() >= end;
      }
    }
    return true;
  }
}
