package io.ytstream.simulation;

/**
 * The kinds of fault a schedule mixes. Each fires at the {@code at}-th occurrence of the event it
 * attaches to (counted per kind), so dropping one fault never moves another.
 */
public enum SimFault {
  /** The driver dies just before a protocol step. */
  CRASH_BEFORE_STEP("crash"),
  /** The driver dies just after a protocol step. */
  CRASH_AFTER_STEP("crash"),
  /**
   * A commit is applied but reported as unknown (batch transactions, and the one-call transactions
   * of chunk writes and consumer advances).
   */
  COMMIT_UNKNOWN("commit"),
  /** A commit fails with a lock conflict (1700) and is not applied. */
  LOCK_CONFLICT("commit"),
  /** A task attempt fails part-way (after some of its writes in the non-transactional modes). */
  TASK_FAILURE("task"),
  /** A task gets a second, speculative attempt that runs and writes too. */
  SPECULATION("task"),
  /** The clock jumps past the transaction timeout: open transactions expire. */
  TRANSACTION_EXPIRY("step"),
  /** A cluster call fails with a transient proxy error (503) before it has any effect. */
  PROXY_ERROR("call"),
  /** A queue partition is trimmed up to (and sometimes past) the consumer. */
  QUEUE_TRIM("step"),
  /** A new driver takes over while the old one goes on running its batch. */
  ZOMBIE_DRIVER("step"),
  /** The output table's per-tablet row limit per transaction is small for the whole run. */
  ROW_LIMIT("run"),
  /**
   * While a zombie driver waits on a cluster call, the new driver runs a few steps: the two
   * drivers' calls interleave inside one use case (counted over the zombie's calls).
   */
  INTERLEAVE("zombie call"),
  /** A queue gets new partitions (it is resharded) while the query runs. */
  RESHARD("step"),
  /**
   * The driver stalls with a consumer advance on the wire, after it read the consumer: a new driver
   * takes over and runs on while the request is held, then the request lands and the old driver
   * goes on as a zombie (counted over the live driver's consumer advances, one-call or in a batch
   * transaction, while no zombie runs).
   */
  STALLED_ADVANCE("advance"),
  /**
   * Producer mode: a push request is lost on its way to the server. Nothing is applied and the
   * writer sees a transport failure, so it cannot tell this from an answer lost after the push
   * landed ({@link #COMMIT_UNKNOWN} on a push).
   */
  PUSH_REQUEST_LOST("push"),
  /**
   * Producer mode: just before a push, another writer creates its session (a retried or speculative
   * task, a new driver), which bumps the session's epoch, and the server fences the push (3102).
   */
  SESSION_TAKEN_OVER("push"),
  /**
   * A queue the query reads is dropped and created again, empty, while the query runs (an
   * operator's mistake): the checkpoint's offsets no longer fit it, and nothing may move the
   * consumer on them. No more rows are produced into it.
   */
  QUEUE_RECREATED("step"),
  /**
   * A commit's request is lost on its way (batch and share transactions, and the one-call
   * transactions of chunk writes and consumer advances): nothing is applied, a batch transaction
   * stays open on the cluster, and the writer sees an unknown outcome, which it cannot tell from
   * {@link #COMMIT_UNKNOWN}'s answer lost after the commit landed.
   */
  COMMIT_LOST("commit"),
  /**
   * Transactional mode: a task runs for longer than the batch transaction's timeout while the
   * driver lives and its pinger renews the transaction's lease ({@link SlowTask}).
   */
  SLOW_TASK("task"),
  /**
   * Transactional mode: a write task the commit coordinator authorized runs out of Spark's
   * execution memory for the rows it keeps until the batch commits, as {@code
   * TransactionalDataWriter}'s row buffer does: it inserts nothing and reports why, with its rows
   * counted (counted over authorized transactional write attempts).
   */
  EXECUTOR_MEMORY("task"),
  /**
   * The user stops the query ({@code StreamingQuery.stop()}, which interrupts the driver's thread)
   * while the driver waits on a cluster call: the call ends as the HTTP client ends a call on an
   * interrupted thread, before its request is sent, and so does every later call of the thread
   * while its interrupt flag stays set (counted over the live driver's calls outside tasks).
   */
  QUERY_STOPPED("driver call"),
  /**
   * Transactional mode: the executor of a write task the commit coordinator authorized is lost
   * after the task's first insert into the batch transaction, in the middle of its inserts (or,
   * when it has one chunk, right after them): nothing aborts the transaction, and the coordinator
   * lets a retry insert the whole partition again (counted over authorized transactional write
   * attempts with rows).
   */
  EXECUTOR_LOST("task"),
  /**
   * Producer mode: Spark kills a write task while a push of its share is on the wire, interrupting
   * its thread: the push lands (arg even) or not (arg odd), the writer sees the interruption, and
   * its abort cannot leave the interrupted thread, so the share's transaction stays open (counted
   * over pushes inside a share's transaction).
   */
  TASK_KILLED("push"),
  /**
   * A write task finishes, and its result (its commit message) never reaches the driver: Spark
   * takes the attempt for failed and runs the task again (counted over write attempts that
   * finished).
   */
  RESULT_LOST("task");

  private final String event;

  SimFault(String event) {
    this.event = event;
  }

  /**
   * What the fault's occurrence counter counts: step, commit, task, call, driver call, zombie call,
   * advance, push or run.
   */
  public String event() {
    return event;
  }
}
