package io.ytstream.application;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * One writer task's share of micro-batch N into a queue, a row at a time as an engine's writer gets
 * them, through {@link PushBatchShare}: row k goes to the tablet {@link OutputTablets} names (or
 * the one the job chose for it, {@link #writeTo}) and is counted there; rows are kept only until a
 * chunk of {@code chunkSize} has gathered, then pushed into the share's transaction, so a task
 * holds one chunk, never its whole share. The first full chunk opens the task's session (which
 * fences every earlier attempt) and starts the share; {@link #commit} finishes it with the rest
 * (opening the session there when no chunk filled; a task with no rows opens nothing and connects
 * to nothing); {@link #abort} aborts the share's transaction, so nothing of a failed attempt lands.
 */
@DrivingUseCase
public final class ProducerTaskWriter {

  /**
   * Where a task's share goes.
   *
   * @param producer the producer table that holds the sessions
   * @param queue the output queue
   * @param queryId the query's id, the same after a restart (it names the sessions)
   * @param taskPartition the task's partition (Spark's {@code partitionId})
   * @param batchId the micro-batch (Spark's {@code epochId})
   * @param tablets the output queue's tablets
   * @param chunkSize the rows per push ({@code spark.yt.write.dynBatchSize})
   * @param maxRowsPerTablet the most rows one transaction may write into one tablet
   * @param sourceEnd the batch's end offsets of the yt sources, recorded in user_meta, if known
   * @param transactionTimeout the timeout of the share's tablet transaction
   */
  public record Share(
      YPath producer,
      YPath queue,
      String queryId,
      int taskPartition,
      long batchId,
      int tablets,
      int chunkSize,
      long maxRowsPerTablet,
      Optional<StreamOffsets> sourceEnd,
      Duration transactionTimeout) {

    public Share {
      Objects.requireNonNull(producer, "producer");
      Objects.requireNonNull(queue, "queue");
      Objects.requireNonNull(queryId, "queryId");
      Objects.requireNonNull(sourceEnd, "sourceEnd");
      Objects.requireNonNull(transactionTimeout, "transactionTimeout");
      if (chunkSize < 1) {
        throw new IllegalArgumentException("a chunk holds at least one row: " + chunkSize);
      }
    }
  }

  private final Supplier<PushBatchShare> connect;
  private final Share target;
  private final long[] rowsPerTablet;
  private List<Row> chunk;
  private long rowCount;
  private int chunksPushed;
  private PushBatchShare shares;
  private PushBatchShare.OpenSession session;
  private PushBatchShare.Share share;

  /**
   * @param connect gives the share's use case over the cluster's ports when the first push needs
   *     them (an engine connects there, so a task with no rows connects to nothing)
   */
  public ProducerTaskWriter(Supplier<PushBatchShare> connect, Share target) {
    this.connect = Objects.requireNonNull(connect, "connect");
    this.target = Objects.requireNonNull(target, "target");
    this.rowsPerTablet = new long[target.tablets()];
    this.chunk = new ArrayList<>(Math.min(target.chunkSize(), 1 << 16));
  }

  /**
   * Takes the task's next row: into the tablet the job chose for it when {@code chosen} holds one
   * ({@link #writeTo}), else into the next tablet in turn ({@link #write(RowAtTablet)}).
   */
  public void write(OptionalInt chosen, RowAtTablet row) {
    if (chosen.isPresent()) {
      writeTo(chosen.getAsInt(), row);
    } else {
      write(row);
    }
  }

  /**
   * Takes the task's next row; a full chunk is pushed before this returns.
   *
   * @throws BatchShareTooLargeException when a tablet would get more rows than one transaction may
   *     write; the share's transaction is aborted, nothing of the share lands
   */
  public void write(RowAtTablet row) {
    place(OutputTablets.forRow(target.taskPartition(), rowCount, target.tablets()), row);
  }

  /**
   * Takes the task's next row into the tablet the job chose for it ({@link ChosenOutputTablet}).
   * The rows are numbered in the share whatever their tablets, so a replay of a share the session
   * holds pushes nothing, as with {@link #write}; a row refused before this call fails the task,
   * and {@link #abort} drops everything it pushed.
   */
  public void writeTo(int tablet, RowAtTablet row) {
    place(ChosenOutputTablet.checkedForWriter(false, tablet, target.tablets()), row);
  }

  private void place(int tablet, RowAtTablet row) {
    rowsPerTablet[tablet]++;
    chunk.add(row.build(tablet));
    rowCount++;
    if (chunk.size() >= target.chunkSize()) {
      PushBatchShare.Share started = started();
      List<Row> full = chunk;
      chunk = new ArrayList<>(full.size());
      shares.pushChunk(started, full);
      chunksPushed++;
    }
  }

  /**
   * The task's commit: the share is finished with the last rows and its transaction commits; empty
   * when the task had no rows (nothing was opened).
   *
   * @throws BatchShareNotCommittedException when the share's transaction did not commit; nothing of
   *     the share landed, and the task's retry pushes it again
   */
  public Optional<BatchShareOutcome> commit() {
    if (share == null && chunk.isEmpty()) {
      return Optional.empty();
    }
    PushBatchShare.Share started = started();
    List<Row> last = chunk;
    chunk = new ArrayList<>();
    return Optional.of(shares.finish(started, last));
  }

  /** The task failed: the share's transaction is aborted; safe at any time, more than once. */
  public void abort() {
    chunk = new ArrayList<>();
    if (shares != null) {
      shares.abort(share);
    }
  }

  /** The session this attempt opened, once it opened one. */
  public Optional<PushBatchShare.OpenSession> session() {
    return Optional.ofNullable(session);
  }

  /** The rows the task handed in, per output tablet. */
  public long[] rowsPerTablet() {
    return rowsPerTablet.clone();
  }

  /** The full chunks pushed so far (the commit's push not among them). */
  public int chunksPushed() {
    return chunksPushed;
  }

  /** The share, with the session opened, at the first push. */
  private PushBatchShare.Share started() {
    if (share != null) {
      return share;
    }
    shares = connect.get();
    session =
        shares.open(target.producer(), target.queue(), target.queryId(), target.taskPartition());
    share =
        shares.start(
            session,
            target.batchId(),
            target.maxRowsPerTablet(),
            target.sourceEnd(),
            target.transactionTimeout());
    return share;
  }
}
