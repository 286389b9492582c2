package io.ytstream.examples;

import io.ytstream.examples.DemoOptions.DeliveryMode;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Appends rows {@code id = 0 .. rows-1} (payload {@code row-<id>}, a seeded random partition each)
 * to the demo queue at a steady rate, through the HTTP adapter like any producer, every 50 ms.
 *
 * <p>In at-least-once mode it writes each chunk in a tablet transaction of its own rather than a
 * plain {@code insert_rows}, so that a fault the demo injects into the sink's plain inserts cannot
 * hit the feeder instead (the in-memory cluster's faults are per operation, not per table).
 */
final class Feeder implements AutoCloseable {

  private static final long TICK_MS = 50;

  private final YtCluster producer;
  private final DemoOptions options;
  private final Random random;
  private final AtomicLong fed = new AtomicLong();
  private final Object lock = new Object();
  private final Thread thread;
  private boolean paused;
  private long pausedNanos;
  private volatile RuntimeException failure;
  private volatile boolean closed;

  Feeder(YtCluster producer, DemoOptions options) {
    this.producer = producer;
    this.options = options;
    this.random = new Random(options.seed());
    this.thread = new Thread(this::feed, "demo-feeder");
    this.thread.setDaemon(true);
  }

  /**
   * Appends the first {@code rows} rows at once, before the steady feed starts (the demo lets the
   * query warm up on them, so that the kills fall in the middle of the feed).
   */
  void prime(long rows) {
    synchronized (lock) {
      long to = Math.min(rows, options.rows());
      write(chunk(fed.get(), to));
      fed.set(to);
    }
  }

  void start() {
    thread.start();
  }

  boolean started() {
    return thread.isAlive() || fed.get() >= options.rows();
  }

  long fed() {
    return fed.get();
  }

  /** Holds the feeder after its current chunk, until {@link #resume}. */
  void pause() {
    synchronized (lock) {
      paused = true;
    }
  }

  void resume() {
    synchronized (lock) {
      paused = false;
      lock.notifyAll();
    }
  }

  void awaitFed(long rows) throws InterruptedException {
    while (fed.get() < rows && thread.isAlive()) {
      Thread.sleep(20);
    }
    check();
  }

  void awaitDone() throws InterruptedException {
    thread.join();
    check();
  }

  private void check() {
    if (failure != null) {
      throw new IllegalStateException("the feeder failed: " + failure.getMessage(), failure);
    }
  }

  private void feed() {
    try {
      long start = System.nanoTime();
      long primed = fed.get();
      long next = primed;
      while (next < options.rows() && !closed) {
        long due;
        synchronized (lock) {
          long pauseStart = System.nanoTime();
          while (paused && !closed) {
            lock.wait(100);
          }
          pausedNanos += System.nanoTime() - pauseStart;
          double seconds = (System.nanoTime() - start - pausedNanos) / 1e9;
          due = Math.min(options.rows(), primed + (long) (seconds * options.rowsPerSecond()));
          if (due > next) {
            write(chunk(next, due));
            next = due;
            fed.set(next);
          }
        }
        TimeUnit.MILLISECONDS.sleep(TICK_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private List<Row> chunk(long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(
          Row.of(
              "$tablet_index",
              (long) random.nextInt(options.partitions()),
              "id",
              id,
              "payload",
              "row-" + id));
    }
    return rows;
  }

  private void write(List<Row> rows) {
    if (options.mode() == DeliveryMode.AT_LEAST_ONCE) {
      TabletTransaction tx = producer.transactions().start(Duration.ofSeconds(30));
      tx.insertRows(StreamingDemo.QUEUE, rows);
      tx.commit();
    } else {
      producer.outputTables().append(StreamingDemo.QUEUE, rows);
    }
  }

  @Override
  public void close() {
    closed = true;
    resume();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
