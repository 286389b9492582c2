package io.ytstream.benchmarks.latency;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Appends rows {@code (id, sent_us)} to a queue at a steady rate from its own thread: about every
 * millisecond it appends, in one request, the rows due since the last append, each stamped with the
 * time just before that request ({@link LatencyClock}). Row g goes to tablet {@code g %
 * partitions}. It appends in-process to the cluster's store (with the emulator, in the emulator's
 * JVM: {@link StoreMain}), so producing costs the readers no HTTP round trips.
 */
final class QueueProducer implements LatencyStore.Producer {

  private final InMemoryCluster cluster;
  private final YPath queue;
  private final int partitions;
  private final double rate;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile long fromMicros = Long.MAX_VALUE;
  private volatile long toMicros = Long.MAX_VALUE;
  private long inWindow;
  private volatile Throwable failure;

  QueueProducer(InMemoryCluster cluster, YPath queue, int partitions, double rate) {
    this.cluster = cluster;
    this.queue = queue;
    this.partitions = partitions;
    this.rate = rate;
    this.thread = new Thread(this::run, "latency-producer " + queue);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  @Override
  public void window(long from, long to) {
    toMicros = to;
    fromMicros = from;
  }

  private void run() {
    long start = LatencyClock.nowMicros();
    long sent = 0;
    try {
      while (!stopping) {
        long now = LatencyClock.nowMicros();
        long due = (long) ((now - start) * rate / 1_000_000.0);
        if (due > sent) {
          List<Row> rows = new ArrayList<>((int) (due - sent));
          for (long g = sent; g < due; g++) {
            rows.add(
                Row.of("$tablet_index", g % partitions, "id", g, LatencyRecorder.SENT_COLUMN, now));
          }
          cluster.outputTables().append(queue, rows);
          if (now >= fromMicros && now < toMicros) {
            synchronized (this) {
              inWindow += due - sent;
            }
          }
          sent = due;
        }
        LockSupport.parkNanos(1_000_000);
      }
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  @Override
  public long stop() {
    close();
    synchronized (this) {
      return inWindow;
    }
  }

  @Override
  public void close() {
    stopping = true;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      throw new IllegalStateException("the producer of " + queue + " failed", failure);
    }
  }
}
