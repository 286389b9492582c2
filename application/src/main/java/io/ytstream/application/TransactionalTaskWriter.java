package io.ytstream.application;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One writer task of a transactional batch, a row at a time as an engine's writer gets them: row k
 * goes to the tablet {@link OutputTablets} names (or the one the job chose for it, {@link
 * #writeTo}) and is counted there; the rows are kept (by the engine, in {@link KeptRows}) until the
 * engine lets the attempt commit, then inserted into the batch transaction chunk by chunk ({@link
 * InsertIntoBatchTransaction}, which aborts it on a failed insert). Once the task alone has more
 * rows for one tablet than the transaction may hold, the batch cannot commit whatever the other
 * tasks bring: the rows are dropped and only counted, and the commit inserts nothing and reports
 * why, so the driver fails the batch with the counts instead of the executor running out of memory.
 *
 * @param <R> the engine's row, converted to an output row only chunk by chunk while inserting
 */
@DrivingUseCase
public final class TransactionalTaskWriter<R> {

  /** Where the engine keeps a task's rows until its commit (bounded by the engine's memory). */
  public interface KeptRows<R> {
    /** Keeps {@code row} (row number {@code rowNumber}) unless stopped or out of room. */
    void add(R row, long rowNumber);

    /** Drops every row kept and keeps no more; {@code why} goes to the driver. */
    void stop(String why, long rowNumber);

    /** Null while every row given was kept. */
    String stoppedBecause();

    /** The row number at which keeping stopped. */
    long stoppedAtRow();

    /** The rows kept, in order. */
    List<R> rows();

    /** Drops the rows and gives their memory back. */
    void release();
  }

  /** The output row of a kept row placed on {@code tablet}. */
  @FunctionalInterface
  public interface ToRow<R> {
    Row convert(R row, int tablet);
  }

  /** Hears that this attempt is about to insert its first rows into the batch transaction. */
  @FunctionalInterface
  public interface InsertsStarting {
    void startingInserts();
  }

  private final InsertIntoBatchTransaction inserts;
  private final TransactionId transaction;
  private final long epochId;
  private final YPath table;
  private final boolean sorted;
  private final int taskPartition;
  private final int tablets;
  private final int chunkSize;
  private final long limitPerCounter;
  private final long[] rowsPerTablet;
  private final KeptRows<R> kept;
  private long rowCount;
  private int[] tabletOfRow = new int[0];

  /**
   * @param tablets the output's tablets (a sorted output's rows are counted in one counter, spread
   *     over its tablets by key, so its limit is the tablets' together)
   * @param chunkSize the rows per insert ({@code spark.yt.write.dynBatchSize})
   * @param maxRowsPerTablet the cluster's rows per tablet per transaction
   */
  public TransactionalTaskWriter(
      InsertIntoBatchTransaction inserts,
      TransactionId transaction,
      long epochId,
      YPath table,
      boolean sorted,
      int taskPartition,
      int tablets,
      int chunkSize,
      long maxRowsPerTablet,
      KeptRows<R> kept) {
    this.inserts = Objects.requireNonNull(inserts, "inserts");
    this.transaction = Objects.requireNonNull(transaction, "transaction");
    this.table = Objects.requireNonNull(table, "table");
    this.kept = Objects.requireNonNull(kept, "kept");
    if (chunkSize < 1) {
      throw new IllegalArgumentException("a chunk holds at least one row: " + chunkSize);
    }
    this.epochId = epochId;
    this.sorted = sorted;
    this.taskPartition = taskPartition;
    this.tablets = tablets;
    this.chunkSize = chunkSize;
    this.rowsPerTablet = new long[sorted ? 1 : tablets];
    this.limitPerCounter = sorted ? saturatedProduct(maxRowsPerTablet, tablets) : maxRowsPerTablet;
  }

  /**
   * Takes the task's next row: into the tablet the job chose for it when {@code chosen} holds one
   * ({@link #writeTo}), else into the next tablet in turn ({@link #write(Object)}).
   */
  public void write(OptionalInt chosen, R row) {
    if (chosen.isPresent()) {
      writeTo(chosen.getAsInt(), row);
    } else {
      write(row);
    }
  }

  /** Takes the task's next row: counts it at its tablet and keeps it, or stops keeping rows. */
  public void write(R row) {
    place(sorted ? 0 : OutputTablets.forRow(taskPartition, rowCount, tablets), row);
  }

  /**
   * Takes the task's next row for the ordered output's tablet the job chose for it ({@link
   * ChosenOutputTablet}): counted and kept as {@link #write} does, and inserted there at the
   * commit. A row refused before this call fails the task before its commit, so nothing of it
   * reaches the batch transaction.
   */
  public void writeTo(int tablet, R row) {
    place(ChosenOutputTablet.checkedForWriter(sorted, tablet, tablets), row);
  }

  private void place(int tablet, R row) {
    if (kept.stoppedBecause() == null) {
      rememberTablet(tablet);
    }
    rowsPerTablet[tablet]++;
    rowCount++;
    if (rowsPerTablet[tablet] > limitPerCounter && kept.stoppedBecause() == null) {
      kept.stop(
          "its rows for one output tablet passed the limit of "
              + limitPerCounter
              + " per transaction",
          rowCount - 1);
    }
    kept.add(row, rowCount - 1);
  }

  /**
   * The attempt's commit, once the engine authorized it: the kept rows go into the batch
   * transaction ({@code starting} hears it first, when there are rows), and the report for the
   * driver comes back. A task that stopped keeping rows inserts nothing and says why.
   */
  public WriterReport commit(ToRow<R> toRow, InsertsStarting starting) {
    String stopped = kept.stoppedBecause();
    if (stopped != null) {
      return new WriterReport(
          epochId,
          transaction.value(),
          rowsPerTablet,
          "partition " + taskPartition + " stopped at row " + kept.stoppedAtRow() + ": " + stopped);
    }
    List<R> rows = kept.rows();
    if (!rows.isEmpty()) {
      starting.startingInserts();
    }
    try {
      inserts.insert(transaction, table, chunks(rows, toRow));
    } finally {
      kept.release();
      tabletOfRow = new int[0];
    }
    return new WriterReport(epochId, transaction.value(), rowsPerTablet, null);
  }

  /** The task failed: what it kept is dropped. */
  public void abort() {
    kept.release();
    tabletOfRow = new int[0];
  }

  /** The rows the task handed in, per output tablet (one counter for a sorted output). */
  public long[] rowsPerTablet() {
    return rowsPerTablet.clone();
  }

  /** Row k's tablet, remembered while its row is kept: the commit inserts it there. */
  private void rememberTablet(int tablet) {
    if (rowCount >= tabletOfRow.length) {
      tabletOfRow = Arrays.copyOf(tabletOfRow, Math.max(16, tabletOfRow.length * 2));
    }
    tabletOfRow[(int) rowCount] = tablet;
  }

  /** The kept rows in chunks of {@code chunkSize}, converted one chunk at a time. */
  private Iterable<List<Row>> chunks(List<R> rows, ToRow<R> toRow) {
    return () ->
        new Iterator<>() {
          private int from;

          @Override
          public boolean hasNext() {
            return from < rows.size();
          }

          @Override
          public List<Row> next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            int to = Math.min(rows.size(), from + chunkSize);
            List<Row> chunk = new ArrayList<>(to - from);
            for (int k = from; k < to; k++) {
              chunk.add(toRow.convert(rows.get(k), tabletOfRow[k]));
            }
            from = to;
            return chunk;
          }
        };
  }

  private static long saturatedProduct(long a, long b) {
    long product = a * b;
    return b != 0 && product / b != a ? Long.MAX_VALUE : product;
  }
}
