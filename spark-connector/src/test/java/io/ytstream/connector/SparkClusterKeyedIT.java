package io.ytstream.connector;

import org.junit.jupiter.api.Test;

/**
 * The connector jar on a Spark standalone cluster of its own ({@link SparkClusterRuns}): the jobs
 * that write by source position into a sorted table, the idempotent sink and Real-time Mode's
 * exactly-once writer, each with an executor and then its driver killed.
 */
class SparkClusterKeyedIT extends SparkClusterRuns {

  @Test
  void idempotentInClusterMode() throws Exception {
    run(Mode.IDEMPOTENT);
  }

  @Test
  void realTimeModeInClusterMode() throws Exception {
    run(Mode.REAL_TIME);
  }
}
