package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RawCpuVerdictTest {

  private static Samples of(double... values) {
    Samples s = new Samples();
    for (double v : values) {
      s.add(v);
    }
    return s;
  }

  @Test
  void aMedianAtTheTargetIsMetWhateverTheRounds() {
    assertEquals("met", PeerBench.rawCpuVerdict(of(0.38, 0.5, 0.61), 0.6, 0.5));
  }

  @Test
  void aMissWhoseRoundsStraddleTheTargetAndWhoseControlMeetsItSaysSo() {
    String verdict = PeerBench.rawCpuVerdict(of(0.44, 0.55, 0.60), 0.42, 0.5);
    assertTrue(verdict.startsWith("**not met**: the median 0.55× is over the 0.50×"), verdict);
    assertTrue(verdict.contains("the rounds (0.44–0.60×) straddle it"), verdict);
    assertTrue(verdict.endsWith("0.42×, under it"), verdict);
  }

  @Test
  void aMissWithEveryRoundOverOrAControlOverIsPlain() {
    assertEquals("**not met**", PeerBench.rawCpuVerdict(of(0.52, 0.55, 0.60), 0.42, 0.5));
    assertEquals("**not met**", PeerBench.rawCpuVerdict(of(0.44, 0.55, 0.60), 0.51, 0.5));
  }
}
