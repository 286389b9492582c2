package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BoundaryGapsTest {

  private static final long S = 1_000_000;
  private static final String TABLE = "//boundary-gaps-test";

  /** A 10 s window from t = 100 s, a row every 100 ms at 3 ms, but the one sent at 104 s at 45. */
  private static LatencyRecorder recorderWithAGapAt104s() {
    LatencyRecorder r = LatencyRecorder.of(TABLE);
    r.window(100 * S, 110 * S);
    for (long sent = 99 * S; sent < 111 * S; sent += 100_000) {
      long latency = sent == 104 * S ? 45_000 : 3_000;
      r.written(new long[] {sent}, 1, sent + latency);
    }
    return r;
  }

  @Test
  void eachBoundaryGetsTheSlowestRowSentNearItsEnd() {
    LatencyRecorder r = recorderWithAGapAt104s();
    try {
      double[] gaps = BoundaryGaps.of(r, List.of(104 * S + 25_000, 107 * S), 100 * S, 110 * S);
      assertArrayEquals(new double[] {45.0, 3.0}, gaps, 1e-9);
      assertEquals(45_000, r.maxBetween(104 * S, 104 * S + 100_000), "the row sent at 104 s");
      assertEquals(3_000, r.maxBetween(104 * S + 10_000, 105 * S), "from the next slot on");
      assertEquals(-1, r.maxBetween(111 * S, 112 * S), "outside the window nothing counts");
    } finally {
      LatencyRecorder.forget(TABLE);
    }
  }

  @Test
  void anEndTooCloseToTheWindowsEdgeIsLeftOut() {
    LatencyRecorder r = recorderWithAGapAt104s();
    try {
      double[] gaps =
          BoundaryGaps.of(r, List.of(100 * S + 200_000, 109 * S + 600_000), 100 * S, 110 * S);
      assertEquals(0, gaps.length, "half a second on either side must lie in the window");
    } finally {
      LatencyRecorder.forget(TABLE);
    }
  }
}
