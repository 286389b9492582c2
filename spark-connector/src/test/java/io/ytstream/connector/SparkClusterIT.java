package io.ytstream.connector;

import org.junit.jupiter.api.Test;

/**
 * The connector jar on a Spark standalone cluster ({@link SparkClusterRuns}): the at-least-once,
 * transactional and producer-session jobs, each with an executor and then its driver killed.
 */
class SparkClusterIT extends SparkClusterRuns {

  @Test
  void atLeastOnceInClientMode() throws Exception {
    run(Mode.AT_LEAST_ONCE);
  }

  /**
   * A transactional batch that loses a running task fails on purpose (a retry could insert the
   * partition's rows twice into the batch transaction): the query fails, {@code --supervise} starts
   * the driver again, and the batch runs again in a new transaction.
   */
  @Test
  void transactionalInClusterMode() throws Exception {
    run(Mode.TRANSACTIONAL);
  }

  @Test
  void producerSessionsInClientMode() throws Exception {
    run(Mode.PRODUCER);
  }
}
