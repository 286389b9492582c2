package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BoundedVerdictTest {

  @Test
  void aRatioAtTheTargetIsMetWhateverTheControlAllows() {
    assertEquals("met", SparkBench.boundedVerdict(0.8, 0.5, 0.8));
  }

  @Test
  void aMissWhoseControlAllowsLessThanTheTargetIsBoundedByIt() {
    String verdict = SparkBench.boundedVerdict(0.65, 0.74, 0.8);
    assertTrue(verdict.startsWith("**not met**, bounded by the control"), verdict);
    assertTrue(verdict.contains("0.74×, under the 0.80×"), verdict);
  }

  @Test
  void aMissWhoseControlAllowsTheTargetIsOurs() {
    assertEquals("**not met**", SparkBench.boundedVerdict(0.65, 0.9, 0.8));
  }
}
