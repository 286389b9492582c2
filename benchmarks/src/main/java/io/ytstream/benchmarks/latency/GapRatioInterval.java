package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * How sure a ratio of two variants' median boundary gaps is: a seeded bootstrap that resamples
 * rounds, then the boundaries within each drawn round. Rounds are drawn for both variants alike
 * (round i of one ran beside round i of the other, so the machine's and the JIT's drift between
 * rounds is shared); resampling boundaries alone would ignore that whole runs differ by more than
 * their boundaries do, and give an interval too narrow.
 */
final class GapRatioInterval {

  static final int RESAMPLES = 10_000;
  static final long SEED = 20261130L;

  private GapRatioInterval() {}

  /**
   * The central {@code coverage} (0..1) interval of median(ours) / median(bare), {low, high}; NaNs
   * when no round has gaps of both.
   *
   * @param ours each run's boundary gaps, in round order
   * @param bare the same for the other variant
   */
  static double[] of(double[][] ours, double[][] bare, double coverage) {
    // Only rounds in which both variants had a boundary can be drawn.
    int[] usable =
        IntStream.range(0, Math.min(ours.length, bare.length))
            .filter(r -> ours[r].length > 0 && bare[r].length > 0)
            .toArray();
    if (usable.length == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    SplittableRandom random = new SplittableRandom(SEED);
    double[] ratios = new double[RESAMPLES];
    int[] rounds = new int[usable.length];
    for (int i = 0; i < RESAMPLES; i++) {
      for (int r = 0; r < rounds.length; r++) {
        rounds[r] = usable[random.nextInt(usable.length)];
      }
      ratios[i] = median(draw(ours, rounds, random)) / median(draw(bare, rounds, random));
    }
    Arrays.sort(ratios);
    double tail = (1 - coverage) / 2;
    return new double[] {
      ratios[(int) Math.floor(tail * (RESAMPLES - 1))],
      ratios[(int) Math.ceil((1 - tail) * (RESAMPLES - 1))]
    };
  }

  /** The drawn rounds' gaps, each round's drawn with replacement as many times as it has gaps. */
  private static double[] draw(double[][] runs, int[] rounds, SplittableRandom random) {
    int n = 0;
    for (int r : rounds) {
      n += runs[r].length;
    }
    double[] drawn = new double[n];
    int at = 0;
    for (int r : rounds) {
      double[] gaps = runs[r];
      for (int k = 0; k < gaps.length; k++) {
        drawn[at++] = gaps[random.nextInt(gaps.length)];
      }
    }
    return drawn;
  }

  /** The lower median, as {@link LatencyStats#boundaryGapMs} takes it. */
  private static double median(double[] values) {
    Arrays.sort(values);
    return values[(values.length - 1) / 2];
  }
}
