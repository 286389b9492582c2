package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.spark.realtime.BackgroundConsumerAdvance;
import io.ytstream.spark.realtime.PrefetchedBounds;
import io.ytstream.spark.realtime.YtPartitionOffset;
import io.ytstream.spark.source.YtMicroBatchStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;

/**
 * What the driver does between two real-time batches, when no task reads: the source's calls in
 * Spark's order at a boundary ({@code latestOffset(start)}, {@code commit(end)}, {@code
 * planInputPartitions(start)} twice) make no request in line: the queue's bounds were read ahead
 * ({@link PrefetchedBounds}), and the consumer moves on a thread of its own, after the boundary.
 * Shown with faults: calls that fail the consumer's reads and advances, or the reads of the bounds,
 * would fail the boundary if they were made in line.
 */
class RealTimeBoundaryTest {

  private final SparkSession spark = SharedSpark.get();

  @Test
  void aBoundaryMakesNoRequestInLineAndMovesTheConsumerOffTheBoundary() throws Exception {
    onQueryThread(this::boundaryWithConsumerFaults);
  }

  private void boundaryWithConsumerFaults() throws Exception {
    TestCluster c = queueWithRows();
    YtMicroBatchStream stream = realTimeStream(c, "yt:///ckpt/boundary-1/sources/0");
    try {
      Offset start = stream.initialOffset();
      boundary(stream, start);
      Await.until(
          Duration.ofSeconds(30), stream::boundsPrefetched, () -> "no bounds read ahead yet");

      // Every consumer read and advance, and every read of the bounds, fails from now on; the
      // next boundary must not notice. (One hand-over only: a second one may already meet the
      // consumer thread's failure, by design.)
      c.cluster.faults().failNext(ClusterOperation.READ_CONSUMER, 1_000, 1, "injected");
      c.cluster.faults().failNext(ClusterOperation.ADVANCE, 1_000, 1, "injected");
      c.cluster.faults().failNext(ClusterOperation.PARTITIONS, 1_000, 1, "injected");
      // The tasks read rows appended after the bounds were read ahead: the batch ends beyond them.
      c.produce("//q", 0, 5, 8);
      Offset end = endAt(stream, c, 8, 3);
      stream.latestOffset(end, ReadLimit.allAvailable());
      assertEquals(2, stream.planInputPartitions(end).length);
      assertEquals(2, stream.planInputPartitions(end).length);
      stream.commit(end);

      // The consumer thread met the faults: the next commit fails with them, nothing is lost.
      Await.until(
          Duration.ofSeconds(30),
          () -> c.cluster.faults().firedCount(ClusterOperation.READ_CONSUMER) > 0,
          () -> "no consumer read yet");
      Await.until(
          Duration.ofSeconds(30),
          () -> {
            try {
              stream.commit(end);
              return false;
            } catch (RuntimeException e) {
              return e.getMessage().contains("injected");
            }
          },
          () -> "the consumer thread's failure was not reported");
      c.cluster.faults().clearPending();
      assertEquals(0, c.consumerTotal("//c", "//q"), "the consumer did not move");
    } finally {
      c.cluster.faults().clearPending();
      stream.stop();
    }
  }

  @Test
  void anEndThisStreamDidNotMergeIsCheckedAgainstBoundsReadInLine() throws Exception {
    onQueryThread(
        () -> {
          TestCluster c = queueWithRows();
          YtMicroBatchStream stream = realTimeStream(c, "yt:///ckpt/boundary-4/sources/0");
          try {
            Offset start = stream.initialOffset();
            Await.until(
                Duration.ofSeconds(30), stream::boundsPrefetched, () -> "no bounds read ahead");
            c.cluster.faults().failNext(ClusterOperation.PARTITIONS, 1_000, 1, "injected");
            // The checkpoint's start (as after a restart): no task of this run has reached it.
            RuntimeException e =
                assertThrows(
                    RuntimeException.class,
                    () -> stream.latestOffset(start, ReadLimit.allAvailable()));
            assertTrue(e.getMessage().contains("injected"), e.getMessage());
          } finally {
            c.cluster.faults().clearPending();
            stream.stop();
          }
        });
  }

  @Test
  void theConsumerMovesAQuietTimeAfterTheBoundaryNotBesideIt() throws Exception {
    onQueryThread(
        () -> {
          TestCluster c = queueWithRows();
          YtMicroBatchStream stream = realTimeStream(c, "yt:///ckpt/boundary-3/sources/0");
          try {
            Offset start = stream.initialOffset();
            boundary(stream, start);
            // Nothing to move yet (the consumer follows commit only); were a move pending, commit
            // would only join it.
            Await.until(
                Duration.ofSeconds(30), stream::consumerIdle, () -> "the first move never ran");
            Offset end = endAt(stream, c, 4, 2);
            long committedAt = System.nanoTime();
            stream.commit(end);
            Await.until(
                Duration.ofSeconds(30),
                () ->
                    c.consumerOffset("//c", "//q", 0) == 4
                        && c.consumerOffset("//c", "//q", 1) == 2,
                () -> "the consumer did not reach the batch end");
            long tookMs = (System.nanoTime() - committedAt) / 1_000_000;
            assertTrue(
                tookMs >= BackgroundConsumerAdvance.QUIET_MS,
                "moved " + tookMs + " ms after the boundary, within the quiet time");
          } finally {
            stream.stop();
          }
        });
  }

  @Test
  void theConsumerReachesEachCommittedEndAndStopWaitsForTheLast() throws Exception {
    onQueryThread(this::twoBoundariesThenStop);
  }

  private void twoBoundariesThenStop() {
    TestCluster c = queueWithRows();
    YtMicroBatchStream stream = realTimeStream(c, "yt:///ckpt/boundary-2/sources/0");
    Offset start = stream.initialOffset();
    boundary(stream, start);
    Offset first = endAt(stream, c, 2, 1);
    stream.commit(first);
    boundary(stream, first);
    Offset second = endAt(stream, c, 5, 3);
    stream.commit(second);
    boundary(stream, second);
    Offset third = endAt(stream, c, 7, 4);
    stream.stop();
    assertEquals(5, c.consumerOffset("//c", "//q", 0));
    assertEquals(3, c.consumerOffset("//c", "//q", 1));
    // Spark's asynchronous progress tracking commits the last ends in its cleanup, after it stopped
    // the source: no error, and the consumer stays (the next run moves it on).
    stream.commit(third);
    assertEquals(5, c.consumerOffset("//c", "//q", 0));
    assertEquals(3, c.consumerOffset("//c", "//q", 1));
  }

  /** A piece of a test that may throw. */
  private interface Body {
    void run() throws Exception;
  }

  /**
   * Runs {@code body} on a new thread, as Spark runs each query on a stream execution thread of its
   * own (the slot check counts the partitions of the sources planned on one thread).
   */
  private static void onQueryThread(Body body) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      thread
          .submit(
              () -> {
                body.run();
                return null;
              })
          .get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    } finally {
      thread.shutdownNow();
    }
  }

  /** Queue //q of two partitions (5 rows in the first, 3 in the second) read by consumer //c. */
  private TestCluster queueWithRows() {
    TestCluster c = TestCluster.create(spark, "boundary");
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 5);
    c.produce("//q", 1, 100, 103);
    return c;
  }

  private YtMicroBatchStream realTimeStream(TestCluster c, String checkpoint) {
    YtTable table = new YtTable(null, Map.of());
    CaseInsensitiveStringMap options =
        new CaseInsensitiveStringMap(Map.of("path", "//q", "consumer_path", "//c"));
    YtMicroBatchStream stream =
        (YtMicroBatchStream) table.newScanBuilder(options).build().toMicroBatchStream(checkpoint);
    stream.prepareForRealTimeMode();
    return stream;
  }

  /** Spark's calls at the start of a real-time batch. */
  private static void boundary(YtMicroBatchStream stream, Offset start) {
    stream.latestOffset(start, ReadLimit.allAvailable());
    stream.planInputPartitions(start);
    stream.planInputPartitions(start);
  }

  /** The batch's end as its two tasks report it. */
  private static Offset endAt(YtMicroBatchStream stream, TestCluster c, long p0, long p1) {
    QueueId q = new QueueId(c.name, YPath.of("//q"));
    return stream.mergeOffsets(
        new PartitionOffset[] {
          new YtPartitionOffset(new PartitionId(q, 0), p0),
          new YtPartitionOffset(new PartitionId(q, 1), p1)
        });
  }
}
