package io.ytstream.application;

import io.ytstream.core.delivery.BatchShareDecision;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.model.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A micro-batch sink task's share of batch N, written into a queue exactly once through a queue
 * producer session of the task's own, without a batch transaction.
 *
 * <ul>
 *   <li>The session is named by the query id and the task's partition ({@link #sessionOf}), so
 *       every attempt of the same task of the same query, in this run or after a restart on the
 *       same checkpoint, uses the same session. {@link #open} creates it, which bumps its epoch and
 *       fences every earlier attempt (the server's 3102 on their next push).
 *   <li>The rows are numbered from the batch id ({@link BatchShareNumbering}) and pushed in one
 *       push, one tablet transaction: all or none. A replayed batch finds its numbers in the
 *       session and the server skips every row ({@code skipped_row_count}); a replay with another
 *       row count (the task's output changed) is not pushed at all.
 *   <li>Before the push the rows per output tablet ({@code $tablet_index}) are checked against the
 *       per-tablet row limit of one transaction, so an oversized share fails with {@link
 *       BatchShareTooLargeException} and writes nothing.
 *   <li>The push sets the session's user_meta to a {@link PushedBatch}: the batch id, the row count
 *       and the source's end offsets of the batch. A replay of that batch over another source range
 *       is refused: the checkpoint and the output no longer agree.
 * </ul>
 *
 * The consumer is not moved here: the source advances it after {@code commits/N}, as in
 * at-least-once.
 */
@DrivingUseCase
public final class PushBatchShare {

  private final QueueProducers producers;
  private final PushThroughProducerSession pushes;
  private final ProtocolMutant mutant;

  public PushBatchShare(QueueProducers producers) {
    this(producers, ProtocolMutant.NONE);
  }

  /** For the simulation's mutant tests only (see {@link ProtocolMutant}). */
  public PushBatchShare(QueueProducers producers, ProtocolMutant mutant) {
    this.producers = Objects.requireNonNull(producers, "producers");
    this.mutant = Objects.requireNonNull(mutant, "mutant");
    this.pushes = new PushThroughProducerSession(producers, mutant);
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
    ProducerSessionId id =
        sessionOf(
            producer,
            queue,
            queryId,
            mutant == ProtocolMutant.SESSION_SHARED_BY_TASKS ? 0 : taskPartition);
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
   * Pushes the share {@code rows} of batch {@code batchId} through {@code session}, unless the
   * session says it needs no push.
   *
   * @param maxRowsPerTablet the most rows one push may write into one output tablet
   * @param sourceEnd the batch's end offsets of the yt sources, recorded in user_meta, if known
   * @throws BatchShareTooLargeException when a tablet would get more than {@code maxRowsPerTablet}
   *     rows; nothing is pushed
   * @throws ProducerFencedException when a newer attempt or another driver has opened the session
   *     since; nothing of this share was written by this attempt
   */
  public BatchShareOutcome push(
      OpenSession session,
      long batchId,
      List<Row> rows,
      long maxRowsPerTablet,
      Optional<StreamOffsets> sourceEnd) {
    Objects.requireNonNull(session, "session");
    BatchShareDecision decision =
        BatchShareNumbering.decide(batchId, rows.size(), session.sequenceNumber());
    session
        .lastPushed()
        .filter(last -> last.batchId() == batchId)
        .ifPresent(last -> checkSameSourceRange(session, last, sourceEnd));
    if (!decision.pushes()
        && !(mutant == ProtocolMutant.PUSH_BEHIND_LATER_BATCH
            && decision.action() == BatchShareDecision.Action.LATER_BATCH_PUSHED)) {
      return new BatchShareOutcome(decision, Optional.empty());
    }
    checkTabletLimit(session, batchId, rows, maxRowsPerTablet);
    PushedBatch record =
        new PushedBatch(
            batchId, rows.size(), session.queryId(), session.taskPartition(), sourceEnd);
    try {
      ProducerPushOutcome pushed =
          pushes.push(
              session.id(),
              session.epoch(),
              decision.firstSequenceNumber(),
              rows,
              Optional.of(record.toUserMeta()));
      return new BatchShareOutcome(decision, Optional.of(pushed));
    } catch (ProducerFencedException e) {
      throw new ProducerFencedException(
          "task partition "
              + session.taskPartition()
              + " of batch "
              + batchId
              + " of query "
              + session.queryId()
              + " is fenced: another writer opened "
              + session.id()
              + " after this attempt got epoch "
              + session.epoch()
              + " (a newer attempt of the same task, or a second driver running the same"
              + " query on the same checkpoint). This attempt stops and is not retried; it wrote"
              + " none of its "
              + rows.size()
              + " row(s)",
          e);
    }
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

  private static void checkTabletLimit(
      OpenSession session, long batchId, List<Row> rows, long maxRowsPerTablet) {
    if (maxRowsPerTablet < 1) {
      throw new IllegalArgumentException(
          "the per-tablet row limit must be >= 1, got " + maxRowsPerTablet);
    }
    // Sorted by tablet, so the same share always names the same tablet first.
    TreeMap<Long, Long> perTablet = new TreeMap<>();
    for (Row row : rows) {
      Object tablet = row.get("$tablet_index");
      long key = tablet instanceof Number n ? n.longValue() : -1L;
      perTablet.merge(key, 1L, Long::sum);
    }
    long worstTablet = -1;
    long worst = 0;
    for (var e : perTablet.entrySet()) {
      if (e.getValue() > worst) {
        worst = e.getValue();
        worstTablet = e.getKey();
      }
    }
    if (worst > maxRowsPerTablet) {
      throw new BatchShareTooLargeException(
          "task partition "
              + session.taskPartition()
              + " of batch "
              + batchId
              + " has "
              + worst
              + " rows for "
              + (worstTablet < 0 ? "one output tablet" : "output tablet " + worstTablet)
              + ", more than the "
              + maxRowsPerTablet
              + " rows per tablet one push may write (a push is one tablet transaction); nothing"
              + " was pushed",
          worstTablet,
          worst,
          maxRowsPerTablet);
    }
  }
}
