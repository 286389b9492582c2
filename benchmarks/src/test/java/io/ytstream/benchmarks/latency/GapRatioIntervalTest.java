package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GapRatioIntervalTest {

  /** Three rounds of eight boundaries, round r around {@code base * (1 + r / 2)} ms. */
  private static double[][] rounds(double base, double scale) {
    double[][] runs = new double[3][8];
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 8; k++) {
        runs[r][k] = scale * base * (1 + r / 2.0) + k;
      }
    }
    return runs;
  }

  @Test
  void theSameGapsGiveAnIntervalAroundOne() {
    double[] interval = GapRatioInterval.of(rounds(30, 1), rounds(30, 1), 0.9);
    assertTrue(interval[0] < 1 && interval[1] > 1, "around 1: " + interval[0] + "–" + interval[1]);
  }

  @Test
  void gapsHalfAgainAsLongLieWhollyAboveOne() {
    double[] interval = GapRatioInterval.of(rounds(30, 1.5), rounds(30, 1), 0.9);
    assertTrue(interval[0] > 1.2 && interval[1] < 1.8, interval[0] + "–" + interval[1]);
  }

  @Test
  void roundsAreDrawnForBothAlikeSoTheirDriftCancels() {
    // Between rounds the gaps double, within a round ours are 10 % longer: drawing the rounds
    // separately for each variant would spread the ratio from about 0.6 to 1.9.
    double[] interval = GapRatioInterval.of(rounds(30, 1.1), rounds(30, 1), 0.9);
    assertTrue(interval[0] > 1.0 && interval[1] < 1.2, interval[0] + "–" + interval[1]);
  }

  @Test
  void theSameInputGivesTheSameIntervalAndNoCommonRoundGivesNone() {
    double[][] ours = rounds(25, 1.05);
    double[][] bare = rounds(25, 1);
    assertArrayEquals(
        GapRatioInterval.of(ours, bare, 0.9), GapRatioInterval.of(ours, bare, 0.9), 0.0);
    double[] none =
        GapRatioInterval.of(new double[][] {{20.0}, {}}, new double[][] {{}, {21.0}}, 0.9);
    assertTrue(Double.isNaN(none[0]) && Double.isNaN(none[1]));
  }
}
