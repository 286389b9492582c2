package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The same jar, built against Spark 4.2, on a standalone cluster of Spark 4.3's jars (those that
 * PySpark 4.3 carries), with an executor and then the driver killed ({@link SparkClusterRuns}):
 * Real-time Mode, the path that differs most between Spark lines (the reader's {@code
 * nextWithTimeout}, the real-time scheduler, the exactly-once ForeachWriter). The sink's commit
 * protocol on 4.3 is {@link SparkSubmitIT}'s and the Python tests' (kill -9 included); one job here
 * keeps the build's time down.
 */
@OnSpark("next")
class SparkClusterNextIT extends SparkClusterRuns {

  @Test
  void realTimeModeInClusterMode() throws Exception {
    assertTrue(spark().version().startsWith("4.3."), spark().version());
    run(Mode.REAL_TIME);
  }
}
