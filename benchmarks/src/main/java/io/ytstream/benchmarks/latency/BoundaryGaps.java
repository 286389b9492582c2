package io.ytstream.benchmarks.latency;

import java.util.ArrayList;
import java.util.List;

/**
 * The batch-boundary gap of each real-time batch end in a window: the largest latency of the rows
 * sent within {@link #HALF_MICROS} of the end, as {@link BatchEnds} saw it. Rows sent after the old
 * tasks stopped reading wait for the next tasks; the progress event comes between the two, tens of
 * milliseconds from each, so half a second on either side holds every row a boundary delays. A
 * window's max is one row, its worst boundary or a pause anywhere; the gaps are one figure per
 * boundary, so many boundaries can compare two sources where a few maxima cannot.
 */
final class BoundaryGaps {

  /** How far before and after a batch end a row's send time may be to count for that boundary. */
  static final long HALF_MICROS = 500_000;

  private BoundaryGaps() {}

  /**
   * The gap of each end whose whole neighbourhood lies in {@code [fromMicros, toMicros)}, in
   * milliseconds, in time order; ends with no row sent near them are left out.
   */
  static double[] of(LatencyRecorder recorder, List<Long> ends, long fromMicros, long toMicros) {
    List<Double> gaps = new ArrayList<>();
    for (long end : ends) {
      long from = end - HALF_MICROS;
      long to = end + HALF_MICROS;
      if (from < fromMicros || to > toMicros) {
        continue;
      }
      long max = recorder.maxBetween(from, to);
      if (max >= 0) {
        gaps.add(max / 1000.0);
      }
    }
    return gaps.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
