package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spark runs executors as threads of one JVM: the cluster must stay consistent under them. */
class ConcurrencyTest {

  private static final int THREADS = 4;

  private final TestClusters t = new TestClusters("threads", 2);
  private final InMemoryCluster cluster = t.cluster;
  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** Runs {@code task} on every thread at once and waits for all. */
  private <T> List<T> onAllThreads(Callable<T> task) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      futures.add(
          pool.submit(
              () -> {
                start.await();
                return task.call();
              }));
    }
    start.countDown();
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures) {
      results.add(future.get(30, TimeUnit.SECONDS));
    }
    return results;
  }

  @Test
  void concurrentAppendsKeepRowIndexesDense() throws Exception {
    int perThread = 500;

    onAllThreads(
        () -> {
          String name = Thread.currentThread().getName();
          for (int i = 0; i < perThread; i++) {
            cluster
                .outputTables()
                .append(t.queue.path(), List.of(TestClusters.row(i % 2, name + "-" + i)));
          }
          return null;
        });

    List<PartitionBounds> bounds = cluster.queueMetadata().partitions(t.queue);
    assertEquals(THREADS * perThread / 2, bounds.get(0).totalRowCount());
    assertEquals(THREADS * perThread / 2, bounds.get(1).totalRowCount());
    List<QueueRow> rows =
        cluster.queueReader().pull(t.consumer, t.partition(0), 0, Integer.MAX_VALUE);
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(i, rows.get(i).rowIndex());
    }
  }

  @Test
  void executorsAttachAndWriteIntoOneTransaction() throws Exception {
    TabletTransaction driver = cluster.transactions().start(Duration.ofMinutes(1));
    int perThread = 200;

    onAllThreads(
        () -> {
          TabletTransaction executor = cluster.transactions().attach(driver.id());
          List<Row> rows = new ArrayList<>();
          for (int i = 0; i < perThread; i++) {
            rows.add(TestClusters.row(1, Thread.currentThread().getName() + "-" + i));
            if (rows.size() == 10) {
              executor.insertRows(t.queue.path(), rows);
              rows.clear();
            }
          }
          return null;
        });
    assertEquals(0, cluster.queueMetadata().partitions(t.queue).get(1).totalRowCount());
    driver.advanceConsumer(t.consumer, t.partition(1), OptionalLong.of(0), THREADS * perThread);
    driver.commit();

    assertEquals(
        THREADS * perThread, cluster.queueMetadata().partitions(t.queue).get(1).totalRowCount());
    assertEquals(
        THREADS * perThread,
        cluster.consumerOffsets().read(t.consumer, t.queue).getOrDefault(t.partition(1), 0));
  }

  @Test
  void compareAndSetAdvancesNeverLoseAnIncrement() throws Exception {
    int perThread = 100;

    onAllThreads(
        () -> {
          for (int done = 0; done < perThread; ) {
            long current =
                cluster.consumerOffsets().read(t.consumer, t.queue).getOrDefault(t.partition(0), 0);
            try {
              cluster
                  .consumerOffsets()
                  .advance(t.consumer, t.partition(0), OptionalLong.of(current), current + 1);
              done++;
            } catch (YtException e) {
              assertEquals(YtErrorCode.CONSUMER_OFFSET_CONFLICT, e.code());
            }
          }
          return null;
        });

    assertEquals(
        THREADS * perThread,
        cluster.consumerOffsets().read(t.consumer, t.queue).getOrDefault(t.partition(0), 0));
  }

  @Test
  void concurrentBatchTransactionsOnOnePartitionCommitOneAtATime() throws Exception {
    List<Boolean> committed =
        onAllThreads(
            () -> {
              TabletTransaction tx = cluster.transactions().start(Duration.ofMinutes(1));
              long lower = tx.readConsumer(t.consumer, t.queue).getOrDefault(t.partition(0), 0);
              tx.insertRows(t.queue.path(), List.of(TestClusters.row(0, "batch")));
              try {
                tx.advanceConsumer(t.consumer, t.partition(0), OptionalLong.of(lower), lower + 1);
                tx.commit();
                return true;
              } catch (YtException e) {
                return false;
              }
            });

    long winners = committed.stream().filter(c -> c).count();
    long offset =
        cluster.consumerOffsets().read(t.consumer, t.queue).getOrDefault(t.partition(0), 0);
    assertEquals(winners, offset, "each committed batch advanced the consumer by one");
    assertEquals(
        winners,
        cluster.queueMetadata().partitions(t.queue).get(0).totalRowCount(),
        "and only committed batches wrote rows (exactly once)");
  }
}
