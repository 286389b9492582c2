package io.ytstream.spark.sink;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.WriteJobVerdict;
import io.ytstream.spark.SharedSpark;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.TaskCommitDenied;
import org.apache.spark.TaskEndReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.TaskResultLost$;
import org.apache.spark.UnknownReason$;
import org.apache.spark.scheduler.JobSucceeded$;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The listener's bookkeeping, fed with the events Spark's bus delivers: which task ends taint a
 * batch, that only the tagged write job and its result tasks count, and that the commit waits for
 * the job's end and gives up with a clear error.
 */
class BatchWriteJobListenerTest {

  private static final AtomicLong IDS = new AtomicLong(7_000);

  private final SparkContext context = SharedSpark.get().sparkContext();
  private final BatchWriteJobListener listener = BatchWriteJobListener.on(context);
  private final String tx = "tx-" + IDS.incrementAndGet();
  private final int job = (int) IDS.incrementAndGet();
  private final int mapStage = (int) IDS.incrementAndGet();
  private final int resultStage = (int) IDS.incrementAndGet();

  @AfterEach
  void forget() {
    listener.forget(tx);
  }

  @Test
  void registersOneListenerPerContextAndTagsTheThreadsJobs() {
    assertTrue(BatchWriteJobListener.on(context) == listener, "one listener per SparkContext");
    listener.tagJobsOf(tx);
    assertEquals(tx, context.getLocalProperty(BatchWriteJobListener.TRANSACTION_PROPERTY));
    listener.forget(tx);
    assertNull(context.getLocalProperty(BatchWriteJobListener.TRANSACTION_PROPERTY));
  }

  @Test
  void aResultTaskLostWithItsExecutorTaintsTheBatch() {
    listener.tagJobsOf(tx);
    start(tx);
    end(mapStage, "ShuffleMapTask", 0, 0, lost()); // a map task inserts nothing
    end(resultStage, "ResultTask", 1, 0, lost());
    end(resultStage, "ResultTask", 1, 1, Success$.MODULE$);
    end(resultStage, "ResultTask", 0, 0, Success$.MODULE$);
    listener.onJobEnd(new SparkListenerJobEnd(job, 0L, JobSucceeded$.MODULE$));

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> await(Duration.ofSeconds(5)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "batch 3 was not committed: task attempt 0 of partition 1 (stage "
                    + resultStage
                    + ".0) ended with ExecutorLostFailure"),
        e.getMessage());
    assertTrue(e.getMessage().contains(tx), e.getMessage());
    assertTrue(e.getMessage().contains("runs again"), e.getMessage());
  }

  @Test
  void failedPullsDeniedCommitsAndSpeculativeLosersLeaveTheBatchClean() {
    listener.tagJobsOf(tx);
    start(tx);
    end(resultStage, "ResultTask", 0, 0, failure(new IllegalStateException("pull failed")));
    end(resultStage, "ResultTask", 0, 1, new TaskCommitDenied(job, 0, 1));
    end(resultStage, "ResultTask", 0, 2, Success$.MODULE$);
    end(resultStage, "ResultTask", 1, 0, Success$.MODULE$);
    // A speculative copy killed after its partition succeeded was never authorized.
    end(resultStage, "ResultTask", 1, 1, killed());
    listener.onJobEnd(new SparkListenerJobEnd(job, 0L, JobSucceeded$.MODULE$));

    assertDoesNotThrow(() -> await(Duration.ofSeconds(5)));
  }

  @Test
  void aFailureAfterTheWriterStartedInsertingTaints() {
    listener.tagJobsOf(tx);
    start(tx);
    RuntimeException closeFailed = new IllegalStateException("close failed");
    closeFailed.addSuppressed(new BatchWriteJobListener.InsertsStarted(tx, 0));
    end(resultStage, "ResultTask", 0, 0, failure(closeFailed));
    end(resultStage, "ResultTask", 0, 1, Success$.MODULE$);
    listener.onJobEnd(new SparkListenerJobEnd(job, 0L, JobSucceeded$.MODULE$));

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> await(Duration.ofSeconds(5)));
    assertTrue(e.getMessage().contains("close failed"), e.getMessage());
  }

  @Test
  void onlyTheTaggedJobCounts() {
    listener.tagJobsOf(tx);
    start(null); // another job of the batch (a broadcast, say), submitted before the tag
    end(resultStage, "ResultTask", 0, 0, lost());
    listener.onJobEnd(new SparkListenerJobEnd(job, 0L, JobSucceeded$.MODULE$));

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> await(Duration.ofMillis(50)));
    assertTrue(
        e.getMessage().contains("did not deliver the end of the batch's write job within"),
        e.getMessage());
  }

  @Test
  void theCommitWaitsForTheJobEndToBeDelivered() throws Exception {
    listener.tagJobsOf(tx);
    start(tx);
    end(resultStage, "ResultTask", 0, 0, Success$.MODULE$);
    Thread bus =
        new Thread(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              listener.onJobEnd(new SparkListenerJobEnd(job, 0L, JobSucceeded$.MODULE$));
            });
    long started = System.nanoTime();
    bus.start();
    await(Duration.ofSeconds(10));
    bus.join();
    assertTrue(System.nanoTime() - started >= 150_000_000L, "waited for the job end");
  }

  @Test
  void everyEndThatMayFollowAnInsertTaints() {
    RuntimeException afterInsert = new IllegalStateException("insert failed");
    afterInsert.addSuppressed(new BatchWriteJobListener.InsertsStarted(tx, 0));
    for (TaskEndReason reason :
        List.of(
            lost(),
            killed(),
            TaskResultLost$.MODULE$,
            UnknownReason$.MODULE$,
            failure(afterInsert))) {
      assertTrue(
          WriteJobVerdict.mayHaveLeftRows(BatchWriteJobListener.outcomeOf(reason)),
          reason.toString());
    }
    for (TaskEndReason reason :
        List.of(
            Success$.MODULE$,
            new TaskCommitDenied(1, 0, 0),
            failure(new IllegalStateException("pull failed")))) {
      assertFalse(
          WriteJobVerdict.mayHaveLeftRows(BatchWriteJobListener.outcomeOf(reason)),
          reason.toString());
    }
  }

  private void await(Duration wait) throws InterruptedException {
    listener.awaitCleanEnd(tx, 3, wait);
  }

  private void start(String transaction) {
    Properties properties = new Properties();
    if (transaction != null) {
      properties.setProperty(BatchWriteJobListener.TRANSACTION_PROPERTY, transaction);
    }
    listener.onJobStart(
        new SparkListenerJobStart(job, 0L, seq(stage(mapStage), stage(resultStage)), properties));
  }

  private void end(int stage, String type, int partition, int attempt, TaskEndReason reason) {
    TaskInfo info =
        new TaskInfo(
            IDS.incrementAndGet(),
            partition,
            attempt,
            partition,
            0L,
            "1",
            "localhost",
            TaskLocality.PROCESS_LOCAL(),
            false);
    listener.onTaskEnd(new SparkListenerTaskEnd(stage, 0, type, reason, info, null, null));
  }

  private static StageInfo stage(int id) {
    return new StageInfo(
        id, 0, "stage " + id, 2, seq(), seq(), "", null, seq(), Option.empty(), 0, false, 0);
  }

  @SafeVarargs
  private static <T> scala.collection.immutable.Seq<T> seq(T... items) {
    return CollectionConverters.asScala(Arrays.asList(items)).toSeq();
  }

  private static ExecutorLostFailure lost() {
    return new ExecutorLostFailure("1", true, Option.apply("Command exited with code 57"));
  }

  private static TaskKilled killed() {
    return new TaskKilled("another attempt succeeded", seq(), seq(), seq());
  }

  private static ExceptionFailure failure(Throwable t) {
    return new ExceptionFailure(t, seq());
  }
}
