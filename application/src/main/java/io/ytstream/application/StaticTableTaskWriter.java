package io.ytstream.application;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One writer task of a static table batch, a row at a time as an engine's writer gets them. The
 * task's rows go into a master transaction of its own nested in the batch's (started at its first
 * row), appended chunk by chunk as they come (at most {@code chunkRows} rows held at a time), so a
 * task's memory does not grow with its share of the batch. {@link #commit} commits the nested
 * transaction into the batch's, {@link #abort} aborts it: a failed or retried attempt leaves
 * nothing in the batch. The task renews its nested transaction's lease itself: each append does,
 * and so does a row that comes a third of the timeout after the last use, so that a slow source
 * does not let it expire while a chunk fills. A batch the table already records ({@link
 * CommitStaticTableSink}) is not written again: its tasks take their rows and send none.
 */
@DrivingUseCase
public final class StaticTableTaskWriter {

  private final StaticTableAppends appends;
  private final TransactionId batch;
  private final long epochId;
  private final boolean writes;
  private final YPath table;
  private final Duration timeout;
  private final int chunkRows;
  private final TimeSource clock;
  private final long renewalMillis;
  private final List<Row> chunk = new ArrayList<>();
  private MasterTransaction own;
  private long lastUseMillis;
  private long rows;

  /**
   * @param batch the batch's master transaction, started and renewed by the driver
   * @param writes false when the table already records the batch: nothing is sent
   * @param timeout the lease of the task's nested transaction, renewed by each append
   * @param chunkRows the most rows held before they are appended
   * @param clock when the nested transaction was last used, for its renewal
   */
  public StaticTableTaskWriter(
      StaticTableAppends appends,
      TransactionId batch,
      long epochId,
      boolean writes,
      YPath table,
      Duration timeout,
      int chunkRows,
      TimeSource clock) {
    if (chunkRows < 1) {
      throw new IllegalArgumentException("a chunk holds at least one row: " + chunkRows);
    }
    this.appends = Objects.requireNonNull(appends, "appends");
    this.batch = Objects.requireNonNull(batch, "batch");
    this.epochId = epochId;
    this.writes = writes;
    this.table = Objects.requireNonNull(table, "table");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.chunkRows = chunkRows;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.renewalMillis = TransactionLease.renewalPeriod(timeout).toMillis();
  }

  /** Takes the task's next row; appends the chunk once it is full. */
  public void write(Row row) {
    rows++;
    if (!writes) {
      return;
    }
    chunk.add(row);
    if (chunk.size() >= chunkRows) {
      flush();
    } else if (own != null && clock.nowMillis() - lastUseMillis >= renewalMillis) {
      own.ping();
      lastUseMillis = clock.nowMillis();
    }
  }

  private void flush() {
    if (chunk.isEmpty()) {
      return;
    }
    if (own == null) {
      own = appends.attach(batch).startNested(timeout);
    }
    try {
      own.append(table, chunk.iterator());
      lastUseMillis = clock.nowMillis();
    } finally {
      chunk.clear();
    }
  }

  /**
   * Appends what is left and commits the task's nested transaction into the batch's; the report
   * goes to the driver. A commit whose outcome is unknown fails the task: Spark runs it again in a
   * new nested transaction, and the batch transaction is committed only when the driver has every
   * task's report, so an attempt that did land twice is caught by the driver's check of the write
   * job.
   */
  public StaticTableTaskReport commit() {
    if (writes) {
      flush();
      if (own != null) {
        own.commit();
        own = null;
      }
    }
    return new StaticTableTaskReport(batch.value(), epochId, writes ? rows : 0);
  }

  /** Aborts the task's nested transaction: nothing of this attempt reaches the batch. */
  public void abort() {
    chunk.clear();
    if (own != null) {
      try {
        own.abort();
      } catch (RuntimeException e) {
        // Its lease runs out, or the batch's abort drops it: either leaves nothing.
      } finally {
        own = null;
      }
    }
  }

  /** The rows this task took. */
  public long rows() {
    return rows;
  }
}
