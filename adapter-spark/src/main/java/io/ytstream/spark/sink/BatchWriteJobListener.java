package io.ytstream.spark.sink;

import io.ytstream.application.BatchWriteJob;
import io.ytstream.core.delivery.TaskAttemptEnd;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.TaskCommitDenied;
import org.apache.spark.TaskEndReason;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.TaskResultLost$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Watches, on the driver, the Spark job that writes each transactional batch, and tells the sink's
 * commit whether some task attempt may have left rows in the batch transaction.
 *
 * <p>Why: a writer inserts its rows only after Spark's output commit coordinator authorizes its
 * attempt, but when an authorized attempt ends in failure the coordinator clears the lock and lets
 * a retry insert the whole partition again into the same transaction. A writer that throws aborts
 * the transaction itself; an executor that dies (or a task killed, or a result lost) aborts
 * nothing. Such a batch must not commit.
 *
 * <p>How the write job is found: {@link #tagJobsOf} sets the local property {@value
 * #TRANSACTION_PROPERTY} to the batch transaction's id on the thread that runs the batch. Spark
 * asks the sink for its writer factory on that thread right before it submits the write job ({@code
 * V2TableWriteExec.writeWithV2}), and every job copies the thread's local properties at submission,
 * so the write job carries the id; jobs of the batch submitted earlier (a broadcast, say) do not.
 *
 * <p>Why waiting for the job's end is enough: the DAGScheduler posts a task's end in the same step
 * in which the coordinator clears that attempt's lock, so the end of a failed authorized attempt is
 * posted before any retry can be authorized, hence before the job's end; the job's end is posted
 * before {@code runJob} returns and the sink's commit runs; the listener bus delivers in order.
 *
 * <p>Which task ends taint the batch is core's rule ({@code WriteJobVerdict}), run by the
 * application's {@link BatchWriteJob}: this listener routes each result task's end to its batch's
 * job and translates Spark's reason ({@link #outcomeOf}): an {@link ExceptionFailure} is a failure
 * after the first insert when its trace carries {@link InsertsStarted} (the writer marks every
 * failure after its first insert), else before it; lost executors, killed tasks, lost results and
 * anything else are named as such.
 *
 * <p>One listener per SparkContext, registered on first use: Spark's listener bus belongs to the
 * context, and a sink is not told when its query ends, so a listener per query could not be
 * removed.
 */
final class BatchWriteJobListener extends SparkListener {

  /** The local property naming the batch transaction a write job writes into. */
  static final String TRANSACTION_PROPERTY = "ytstream.sink.batchTransaction";

  /** How long the sink's commit waits for the bus to deliver the write job's end. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

  // One listener per SparkContext, found again by every sink of the context: Spark has no public
  // lookup of registered listeners (SparkContext.addSparkListener returns nothing and the bus is
  // private), and a listener per sink would stay on the bus after its query ends.
  private static WeakReference<BatchWriteJobListener> registered = new WeakReference<>(null);

  private final SparkContext context;
  // Every field below is guarded by this.
  private final Map<String, WriteJob> byTransaction = new HashMap<>();
  private final Map<Integer, WriteJob> byJob = new HashMap<>();
  private final Map<Integer, WriteJob> byStage = new HashMap<>();

  private BatchWriteJobListener(SparkContext context) {
    this.context = context;
  }

  /** The listener of {@code context}, registered on first use. */
  static synchronized BatchWriteJobListener on(SparkContext context) {
    BatchWriteJobListener listener = registered.get();
    if (listener == null || listener.context != context) {
      listener = new BatchWriteJobListener(context);
      context.addSparkListener(listener);
      registered = new WeakReference<>(listener);
    }
    return listener;
  }

  /**
   * Tags the jobs this thread submits from now on as writing into {@code transactionId}; the sink's
   * writer factory is asked for right before the write job is submitted.
   */
  void tagJobsOf(String transactionId) {
    synchronized (this) {
      byTransaction.put(transactionId, new WriteJob());
    }
    context.setLocalProperty(TRANSACTION_PROPERTY, transactionId);
  }

  /** Stops tagging this thread's jobs and forgets {@code transactionId}'s write job. */
  void forget(String transactionId) {
    context.setLocalProperty(TRANSACTION_PROPERTY, null);
    synchronized (this) {
      WriteJob job = byTransaction.remove(transactionId);
      if (job != null) {
        byJob.values().removeIf(j -> j == job);
        byStage.values().removeIf(j -> j == job);
      }
    }
  }

  /**
   * Waits until the bus has delivered the end of the write job of {@code transactionId}.
   *
   * @throws IllegalStateException naming the task end that taints the batch, or saying that the
   *     job's end did not arrive within {@code wait}
   */
  void awaitCleanEnd(String transactionId, long epochId, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (this) {
      WriteJob job = byTransaction.get(transactionId);
      while (job != null && !job.ended()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        wait(Math.max(1, left / 1_000_000));
        job = byTransaction.get(transactionId);
      }
      if (job == null || !job.ended()) {
        throw new IllegalStateException(
            "batch "
                + epochId
                + " was not committed: Spark's listener bus did not deliver the end of the"
                + " batch's write job within "
                + wait.toMillis() / 1000.0
                + " s, so the sink cannot tell whether a lost or failed task attempt left rows"
                + " in batch transaction "
                + transactionId
                + ". The transaction was aborted: nothing was written and the consumer did not"
                + " move; the batch runs again with a new transaction when the query restarts."
                + " A bus this far behind means an overloaded driver or a slow listener (look"
                + " for Spark's 'Dropping event from queue' warnings)");
      }
      job.tasks.checkCommittable(epochId, transactionId);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart event) {
    String transactionId =
        event.properties() == null ? null : event.properties().getProperty(TRANSACTION_PROPERTY);
    if (transactionId == null) {
      return;
    }
    synchronized (this) {
      WriteJob job = byTransaction.get(transactionId);
      if (job == null) {
        return; // already committed or aborted: a stale tag
      }
      job.started++;
      byJob.put(event.jobId(), job);
      for (Object stage : CollectionConverters.asJava(event.stageIds())) {
        byStage.put((Integer) stage, job);
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd event) {
    if (!"ResultTask".equals(event.taskType())) {
      return; // only result tasks write; a map task of the job inserts nothing
    }
    WriteJob job;
    synchronized (this) {
      job = byStage.get(event.stageId());
    }
    if (job != null) {
      job.tasks.taskEnded(endOf(event));
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd event) {
    synchronized (this) {
      WriteJob job = byJob.remove(event.jobId());
      if (job != null) {
        job.ended++;
        notifyAll();
      }
    }
  }

  /** Spark's task end as core's {@link TaskAttemptEnd}. */
  static TaskAttemptEnd endOf(SparkListenerTaskEnd event) {
    int partition = event.taskInfo().partitionId();
    TaskEndReason reason = event.reason();
    return new TaskAttemptEnd(
        partition,
        outcomeOf(reason),
        "task attempt "
            + event.taskInfo().attemptNumber()
            + " of partition "
            + partition
            + " (stage "
            + event.stageId()
            + "."
            + event.stageAttemptId()
            + ") ended with "
            + describe(reason));
  }

  /** What Spark's reason says about rows the attempt may have left in the transaction. */
  static TaskAttemptEnd.Outcome outcomeOf(TaskEndReason reason) {
    if (reason instanceof Success$) {
      return TaskAttemptEnd.Outcome.SUCCEEDED;
    }
    if (reason instanceof TaskCommitDenied) {
      return TaskAttemptEnd.Outcome.COMMIT_DENIED;
    }
    if (reason instanceof ExceptionFailure failure) {
      String trace = failure.fullStackTrace();
      return trace == null || trace.contains(InsertsStarted.class.getName())
          ? TaskAttemptEnd.Outcome.FAILED_AFTER_INSERT
          : TaskAttemptEnd.Outcome.FAILED_BEFORE_INSERT;
    }
    if (reason instanceof ExecutorLostFailure) {
      return TaskAttemptEnd.Outcome.EXECUTOR_LOST;
    }
    if (reason instanceof TaskKilled) {
      return TaskAttemptEnd.Outcome.KILLED;
    }
    if (reason instanceof TaskResultLost$) {
      return TaskAttemptEnd.Outcome.RESULT_LOST;
    }
    return TaskAttemptEnd.Outcome.OTHER;
  }

  private static String describe(TaskEndReason reason) {
    String text =
        reason instanceof TaskFailedReason failed ? failed.toErrorString() : reason.toString();
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /** One batch's write job(s), as seen on the bus. */
  private static final class WriteJob {
    final BatchWriteJob tasks = new BatchWriteJob();
    int started;
    int ended;

    boolean ended() {
      return started > 0 && ended == started;
    }
  }

  /**
   * Attached (as a suppressed exception) to every failure of a task whose writer has started
   * inserting into the batch transaction, so that {@link #outcomeOf} can tell it from a failure
   * before any insert (a failed pull).
   */
  static final class InsertsStarted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InsertsStarted(String transactionId, int partitionId) {
      super(
          "partition "
              + partitionId
              + " had started inserting its rows into batch transaction "
              + transactionId,
          null,
          false,
          false);
    }
  }
}
