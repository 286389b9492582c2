package io.ytstream.application;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.delivery.BatchShareDecision;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A micro-batch sink task's share of batch N, written into a queue exactly once through a queue
 * producer session of the task's own, without a batch transaction, in chunks, so a task holds one
 * chunk of its share at a time, never the whole share.
 *
 * <p>The steps, in the order a writer calls them: {@link #open} the session, {@link #start} the
 * share, {@link #pushChunk} as the rows come (any number of times, chunks of any size), {@link
 * #finish} with the last rows, or {@link #abort} when the task fails. The Spark writer and the
 * simulation call exactly these.
 *
 * <ul>
 *   <li>The session is named by the query id and the task's partition ({@link #sessionOf}), so
 *       every attempt of the same task of the same query, in this run or after a restart on the
 *       same checkpoint, uses the same session. {@link #open} creates it, which bumps its epoch and
 *       fences every earlier attempt: an earlier attempt's push fails with the server's 3102, or,
 *       when its share's transaction started before the newer attempt opened the session, its
 *       commit fails on the session row (1700).
 *   <li>The rows are numbered from the batch id ({@link BatchShareNumbering}): row k of the share
 *       is {@code base(N) + k}. Every chunk is pushed into one tablet transaction of the share's
 *       own, started at the first push, and {@link #finish} commits it: the share lands all or
 *       none. A crash before the commit leaves nothing, and the replay pushes the share in full.
 *       After the commit the session holds the share's last number; a replay finds it when it opens
 *       the session, pushes nothing, counts its rows, and at the end reports {@code ALREADY_PUSHED}
 *       for the same row count or {@code OUTPUT_CHANGED} for another (the task's output changed).
 *   <li>The last row handed in is held back until the next chunk or {@link #finish}, so the last
 *       push is never empty and carries the session's user_meta: a {@link PushedBatch} with the
 *       batch id, the row count (known only there) and the source's end offsets. The session row
 *       holds it once the transaction commits. A replay of that batch over another source range is
 *       refused: the checkpoint and the output no longer agree.
 *   <li>The per-tablet row limit applies to the whole transaction: rows are counted per output
 *       tablet ({@code $tablet_index}) as they are handed in, before their chunk is pushed. A share
 *       that would put more rows into one tablet fails with {@link BatchShareTooLargeException}
 *       before that chunk goes out, and its transaction is aborted, so nothing of it lands (nothing
 *       is pushed at all when the first chunk already exceeds the limit).
 *   <li>A commit whose outcome is unknown is resolved by opening the session again: it holds the
 *       share's last number exactly when the commit landed. Otherwise the task fails with {@link
 *       BatchShareNotCommittedException} (nothing of it landed), and the task's retry pushes it
 *       again.
 *   <li>Each push after the first renews the transaction's lease, so a share that takes longer than
 *       the transaction's timeout to compute does not expire between chunks that keep coming.
 * </ul>
 *
 * The consumer is not moved here: the source advances it after {@code commits/N}, as in
 * at-least-once.
 */
@DrivingUseCase
public final class PushBatchShare {

  /** The timeout of a share's transaction when the caller names none. */
  public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  /** Attempts of a share's commit while it fails before reaching the server (a 503). */
  static final int COMMIT_ATTEMPTS = 3;

  private final QueueProducers producers;
  private final TabletTransactions transactions;
  private final PushThroughProducerSession pushes;

  public PushBatchShare(QueueProducers producers, TabletTransactions transactions) {
    this.producers = Objects.requireNonNull(producers, "producers");
    this.transactions = Objects.requireNonNull(transactions, "transactions");
    this.pushes = new PushThroughProducerSession(producers);
  }

  /**
   * The session of task partition {@code taskPartition} of query {@code queryId} (the id Spark
   * keeps in the checkpoint, the same after a restart) for {@code queue} in {@code producer}.
   */
  public static ProducerSessionId sessionOf(
      YPath producer, YPath queue, String queryId, int taskPartition) {
    Objects.requireNonNull(queryId, "queryId");
    if (queryId.isBlank()) {
      throw new IllegalArgumentException("a query id must not be blank");
    }
    if (taskPartition < 0) {
      throw new IllegalArgumentException(
          "a task partition must be >= 0, got " + taskPartition + " for query " + queryId);
    }
    return new ProducerSessionId(producer, queue, queryId + "/partition-" + taskPartition);
  }

  /** One attempt's hold on its session: the epoch it got and what the session held then. */
  public record OpenSession(
      ProducerSessionId id,
      String queryId,
      int taskPartition,
      long epoch,
      long sequenceNumber,
      Optional<PushedBatch> lastPushed) {}

  /**
   * Creates (or takes over) the session of a task: the server bumps its epoch, so any earlier
   * attempt of the same task is fenced from now on.
   */
  public OpenSession open(YPath producer, YPath queue, String queryId, int taskPartition) {
    ProducerSessionId id = sessionOf(producer, queue, queryId, taskPartition);
    ProducerSession session = producers.createSession(id);
    return new OpenSession(
        id,
        queryId,
        taskPartition,
        session.epoch(),
        session.sequenceNumber(),
        PushedBatch.fromUserMeta(session.userMeta()));
  }

  /**
   * One share on its way: what {@link #start} fixed and what the chunks so far did. Owned by one
   * task attempt; not thread-safe.
   */
  public static final class Share {
    private final OpenSession session;
    private final long batchId;
    private final long maxRowsPerTablet;
    private final Optional<StreamOffsets> sourceEnd;
    private final Duration transactionTimeout;
    private final boolean pushes;
    // Sorted by tablet, so the same share always names the same tablet first.
    private final TreeMap<Long, Long> rowsPerTablet = new TreeMap<>();
    private long rowCount;
    private Row heldBack;
    private long pushedRowCount;
    private TabletTransaction transaction;
    private boolean ended;

    private Share(
        OpenSession session,
        long batchId,
        long maxRowsPerTablet,
        Optional<StreamOffsets> sourceEnd,
        Duration transactionTimeout,
        boolean pushes) {
      this.session = session;
      this.batchId = batchId;
      this.maxRowsPerTablet = maxRowsPerTablet;
      this.sourceEnd = sourceEnd;
      this.transactionTimeout = transactionTimeout;
      this.pushes = pushes;
    }

    /** The rows handed in so far. */
    public long rowCount() {
      return rowCount;
    }

    /** Whether this share's rows go out: false when the session already holds this batch. */
    public boolean pushesRows() {
      return pushes;
    }

    /** The rows pushed into the share's transaction so far (the held-back row not among them). */
    public long pushedRowCount() {
      return pushedRowCount;
    }

    public OpenSession session() {
      return session;
    }

    public long batchId() {
      return batchId;
    }
  }

  /**
   * Starts the share of batch {@code batchId} through {@code session}; nothing is sent until a
   * chunk is pushed.
   *
   * @param maxRowsPerTablet the most rows the share's transaction may write into one output tablet
   * @param sourceEnd the batch's end offsets of the yt sources, recorded in user_meta, if known
   * @param transactionTimeout the timeout of the share's tablet transaction
   */
  public Share start(
      OpenSession session,
      long batchId,
      long maxRowsPerTablet,
      Optional<StreamOffsets> sourceEnd,
      Duration transactionTimeout) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(sourceEnd, "sourceEnd");
    Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    if (maxRowsPerTablet < 1) {
      throw new IllegalArgumentException(
          "the per-tablet row limit must be >= 1, got " + maxRowsPerTablet);
    }
    session
        .lastPushed()
        .filter(last -> last.batchId() == batchId)
        .ifPresent(last -> checkSameSourceRange(session, last, sourceEnd));
    boolean pushes = BatchShareNumbering.holdsNothingOf(batchId, session.sequenceNumber());
    return new Share(session, batchId, maxRowsPerTablet, sourceEnd, transactionTimeout, pushes);
  }

  /**
   * Hands in the next {@code rows} of the share: counted per output tablet, then pushed into the
   * share's transaction (all but the last row, which waits for the next chunk or {@link #finish}).
   * A share the session already holds is only counted.
   *
   * @throws BatchShareTooLargeException when a tablet would get more than the per-tablet row limit;
   *     the share's transaction is aborted, nothing of the share lands
   * @throws ProducerFencedException when a newer attempt or another driver has opened the session
   *     since; the share's transaction is aborted
   */
  public void pushChunk(Share share, List<Row> rows) {
    checkLive(share);
    count(share, rows);
    if (!share.pushes || rows.isEmpty()) {
      return;
    }
    List<Row> out = new ArrayList<>(rows.size());
    if (share.heldBack != null) {
      out.add(share.heldBack);
    }
    out.addAll(rows.subList(0, rows.size() - 1));
    share.heldBack = rows.get(rows.size() - 1);
    if (!out.isEmpty()) {
      pushIntoTransaction(share, out, Optional.empty());
    }
  }

  /**
   * Hands in the share's last {@code rows} (possibly none) and ends it: the last push carries the
   * session's user_meta, and the share's transaction commits.
   *
   * @throws BatchShareTooLargeException when a tablet would get more than the per-tablet row limit;
   *     nothing of the share lands
   * @throws ProducerFencedException when a newer attempt or another driver has opened the session
   *     since; nothing of this share was written by this attempt
   * @throws BatchShareNotCommittedException when the share's transaction did not commit; nothing of
   *     the share landed, and running the task again pushes it again
   */
  public BatchShareOutcome finish(Share share, List<Row> rows) {
    checkLive(share);
    count(share, rows);
    BatchShareDecision decision =
        BatchShareNumbering.decide(share.batchId, share.rowCount, share.session.sequenceNumber());
    if (!share.pushes || share.rowCount == 0) {
      share.ended = true;
      return new BatchShareOutcome(decision, Optional.empty());
    }
    List<Row> last = new ArrayList<>(rows.size() + 1);
    if (share.heldBack != null) {
      last.add(share.heldBack);
    }
    last.addAll(rows);
    share.heldBack = null;
    PushedBatch record =
        new PushedBatch(
            share.batchId,
            share.rowCount,
            share.session.queryId(),
            share.session.taskPartition(),
            share.sourceEnd);
    pushIntoTransaction(share, last, Optional.of(record.toUserMeta()));
    share.ended = true;
    ProducerPushOutcome pushed =
        new ProducerPushOutcome(decision.lastSequenceNumber(), share.rowCount, 0);
    return commit(share, decision, pushed);
  }

  /**
   * Ends a share that will not finish (the task failed): its transaction is aborted, so nothing of
   * it lands. Safe to call at any time, also after {@link #finish}, and more than once.
   */
  public void abort(Share share) {
    if (share == null) {
      return;
    }
    share.ended = true;
    share.heldBack = null;
    TabletTransaction open = share.transaction;
    share.transaction = null;
    if (open != null) {
      try {
        open.abort();
      } catch (RuntimeException e) {
        // The transaction expires on its own: it was never committed.
      }
    }
  }

  /**
   * The whole share {@code rows} in one chunk: {@link #start}, then {@link #finish}, with {@link
   * #DEFAULT_TRANSACTION_TIMEOUT}.
   */
  public BatchShareOutcome push(
      OpenSession session,
      long batchId,
      List<Row> rows,
      long maxRowsPerTablet,
      Optional<StreamOffsets> sourceEnd) {
    Share share = start(session, batchId, maxRowsPerTablet, sourceEnd, DEFAULT_TRANSACTION_TIMEOUT);
    try {
      return finish(share, rows);
    } catch (RuntimeException e) {
      abort(share);
      throw e;
    }
  }

  private static void checkLive(Share share) {
    Objects.requireNonNull(share, "share");
    if (share.ended) {
      throw new IllegalStateException(
          "the share of batch "
              + share.batchId
              + " through "
              + share.session.id()
              + " has ended (finished or aborted); start a new one");
    }
  }

  /** Counts the rows per output tablet; fails, aborting the share, past the limit. */
  private void count(Share share, List<Row> rows) {
    for (Row row : rows) {
      Object tablet = row.get("$tablet_index");
      long key = tablet instanceof Number n ? n.longValue() : -1L;
      long now = share.rowsPerTablet.merge(key, 1L, Long::sum);
      share.rowCount++;
      if (share.pushes && now > share.maxRowsPerTablet) {
        boolean pushedAny = share.transaction != null;
        abort(share);
        throw tooLarge(share, key, now, pushedAny);
      }
    }
  }

  private void pushIntoTransaction(Share share, List<Row> rows, Optional<Object> userMeta) {
    OpenSession session = share.session;
    long base = BatchShareNumbering.base(share.batchId) + share.pushedRowCount;
    try {
      if (share.transaction == null) {
        share.transaction = transactions.start(share.transactionTimeout);
      } else {
        new TransactionLease(share.transaction).renew();
      }
      // The server's skipped count is not the share's: a share pushes only into a session that
      // holds nothing of its batch, so what it skips is a repeat of a push whose answer was lost.
      pushes.pushInTransaction(
          share.transaction.id(), session.id(), session.epoch(), base, rows, userMeta);
      share.pushedRowCount += rows.size();
    } catch (ProducerFencedException e) {
      abort(share);
      throw fenced(share, e);
    } catch (RuntimeException e) {
      abort(share);
      if (hasCode(e, YtErrorCode.NO_SUCH_TRANSACTION)) {
        throw expired(share, e);
      }
      throw e;
    }
  }

  /**
   * The share's transaction is gone (its lease lapsed between two chunks, or the cluster lost it).
   */
  private static BatchShareNotCommittedException expired(Share share, RuntimeException e) {
    return notCommitted(
        share,
        "its tablet transaction (timeout "
            + share.transactionTimeout.toMillis()
            + " ms) expired or is unknown to the cluster: the rows came slower than the"
            + " transaction's timeout between two chunks, or the cluster aborted it",
        e);
  }

  private BatchShareOutcome commit(
      Share share, BatchShareDecision decision, ProducerPushOutcome pushed) {
    TabletTransaction transaction = share.transaction;
    share.transaction = null;
    RuntimeException last = null;
    for (int attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
      try {
        transaction.commit();
        return new BatchShareOutcome(decision, Optional.of(pushed));
      } catch (RuntimeException e) {
        if (Interruptions.isInterruption(e)) {
          abortQuietly(transaction);
          throw e;
        }
        if (hasCode(e, YtErrorCode.TRANSACTION_LOCK_CONFLICT)) {
          throw lockConflict(share, e);
        }
        if (hasCode(e, YtErrorCode.NO_SUCH_TRANSACTION)) {
          throw expired(share, e);
        }
        if (last != null) {
          e.addSuppressed(last);
        }
        last = e;
        CommitOutcome outcome = CommitErrorClassifier.classify(e);
        if (outcome == CommitOutcome.UNKNOWN) {
          return resolve(share, transaction, decision, pushed, e);
        }
        if (outcome != CommitOutcome.RETRY_LATER) {
          abortQuietly(transaction);
          throw notCommitted(share, "its commit failed", e);
        }
      }
    }
    abortQuietly(transaction);
    throw notCommitted(share, "its commit failed " + COMMIT_ATTEMPTS + " times", last);
  }

  /**
   * The commit met a newer write of the session row: another attempt or driver opened the session
   * after this share's transaction started (or a lock conflict of the cluster). Nothing landed.
   */
  private static BatchShareNotCommittedException lockConflict(Share share, RuntimeException e) {
    return notCommitted(
        share,
        "its commit met a lock conflict on the session row: another attempt of this task or a"
            + " second driver opened "
            + share.session.id()
            + " after this share's transaction started, or another transaction wrote that row",
        e);
  }

  /**
   * The commit's outcome is unknown: the session, opened again, holds the share's last number
   * exactly when the commit landed (nothing else pushes this batch's numbers through it). The
   * transaction is aborted first: a commit request that never arrived leaves it open on the
   * cluster, and once it is over the session's answer is final.
   */
  private BatchShareOutcome resolve(
      Share share,
      TabletTransaction transaction,
      BatchShareDecision decision,
      ProducerPushOutcome pushed,
      RuntimeException e) {
    abortQuietly(transaction);
    ProducerSession now;
    try {
      now = producers.createSession(share.session.id());
    } catch (RuntimeException again) {
      again.addSuppressed(e);
      throw notCommitted(
          share, "its commit's outcome is unknown and the session could not be read", again);
    }
    if (now.sequenceNumber() == decision.lastSequenceNumber()) {
      return new BatchShareOutcome(decision, Optional.of(pushed));
    }
    throw notCommitted(
        share,
        "its commit's outcome was unknown, and "
            + share.session.id()
            + " holds sequence number "
            + now.sequenceNumber()
            + ", not the share's last "
            + decision.lastSequenceNumber(),
        e);
  }

  private static boolean hasCode(Throwable error, int code) {
    Throwable current = error;
    for (int depth = 0; current != null && depth < 32; depth++) {
      if (current instanceof YtException yt && yt.hasCode(code)) {
        return true;
      }
      current = current.getCause();
    }
    return false;
  }

  private static void abortQuietly(TabletTransaction transaction) {
    try {
      transaction.abort();
    } catch (RuntimeException e) {
      // It expires on its own.
    }
  }

  private static BatchShareNotCommittedException notCommitted(
      Share share, String why, RuntimeException cause) {
    return new BatchShareNotCommittedException(
        "the share of task partition "
            + share.session.taskPartition()
            + " of batch "
            + share.batchId
            + " of query "
            + share.session.queryId()
            + " ("
            + share.rowCount
            + " row(s) in one tablet transaction) did not land: "
            + why
            + ". Nothing of it is in the queue; running the task again pushes it again",
        cause);
  }

  private static ProducerFencedException fenced(Share share, ProducerFencedException e) {
    OpenSession session = share.session;
    return new ProducerFencedException(
        "task partition "
            + session.taskPartition()
            + " of batch "
            + share.batchId
            + " of query "
            + session.queryId()
            + " is fenced: another writer opened "
            + session.id()
            + " after this attempt got epoch "
            + session.epoch()
            + " (a newer attempt of the same task, or a second driver running the same"
            + " query on the same checkpoint). This attempt stops and is not retried; none of its"
            + " rows landed (its transaction was aborted)",
        e);
  }

  /**
   * A batch the session already holds was pushed for the source range its user_meta records; a
   * replay of that batch over another range means the checkpoint no longer describes the output (it
   * was copied from another query or rewritten), and neither skipping nor pushing is right.
   */
  private static void checkSameSourceRange(
      OpenSession session, PushedBatch last, Optional<StreamOffsets> sourceEnd) {
    if (last.sourceEnd().isEmpty()
        || sourceEnd.isEmpty()
        || last.sourceEnd().get().equals(sourceEnd.get())) {
      return;
    }
    throw new IllegalStateException(
        "batch "
            + last.batchId()
            + " of query "
            + session.queryId()
            + " was pushed through "
            + session.id()
            + " for the source range ending at "
            + OffsetsJson.write(last.sourceEnd().get())
            + ", but this run of the batch ends at "
            + OffsetsJson.write(sourceEnd.get())
            + ": the checkpoint's offsets no longer describe what the queue holds (a checkpoint"
            + " copied from another run, or rewritten). Nothing was pushed. Start the query on a"
            + " new checkpoint location, which gives it a new query id and new sessions");
  }

  private static BatchShareTooLargeException tooLarge(
      Share share, long tablet, long rows, boolean pushedAny) {
    return new BatchShareTooLargeException(
        "task partition "
            + share.session.taskPartition()
            + " of batch "
            + share.batchId
            + " has more than "
            + share.maxRowsPerTablet
            + " rows for "
            + (tablet < 0 ? "one output tablet" : "output tablet " + tablet)
            + " (the rows one tablet transaction may write, and a share is pushed in one); "
            + (pushedAny
                ? "its transaction was aborted, nothing of it landed"
                : "nothing was pushed"),
        tablet,
        rows,
        share.maxRowsPerTablet);
  }
}
