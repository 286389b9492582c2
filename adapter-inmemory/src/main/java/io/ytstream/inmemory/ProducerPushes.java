package io.ytstream.inmemory;

import io.ytstream.core.error.YtException;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Buffers one {@code push_queue_producer} in a tablet transaction: the rows the session has not
 * written yet go to the queue, and the session row gets the last sequence number (and the push's
 * user_meta). The session is read at the transaction's start snapshot, as an advance reads its
 * consumer row; writing the session row makes two transactions pushing through one session conflict
 * at commit (1700). Within one transaction the session's number is the one the transaction's last
 * push through it left, not the snapshot's ({@code yt/yt/ytlib/api/native/transaction.cpp}, {@code
 * TTransaction::DoPushQueueProducer} keeps each session's last number per transaction), so a second
 * copy of a push in the same transaction is skipped, not written twice. Every check runs before
 * anything is buffered, so a refused push leaves the transaction as it was. Runs under the cluster
 * lock.
 */
final class ProducerPushes {

  private ProducerPushes() {}

  static PushResult buffer(
      ClusterState cluster, InMemoryTransaction transaction, ProducerPush push) {
    ProducerSessionId session = push.session();
    SortedTable producer = cluster.producerTable(session.producer());
    OrderedTable queue = cluster.orderedTable(session.queue());
    ProducerTableFormat.State stored =
        producer
            .readAt(ProducerTableFormat.key(cluster.name(), session), transaction.startTimestamp())
            .map(ProducerTableFormat.State::of)
            .orElseThrow(() -> missing(session));
    checkEpoch(push.epoch(), stored.epoch());
    long sessionNumber =
        transaction.producerSequenceNumber(session).orElse(stored.sequenceNumber());
    SequenceNumbers numbers =
        SequenceNumbers.validate(push.rows(), push.firstSequenceNumber(), sessionNumber);
    List<Row> fresh = new ArrayList<>(push.rows().size() - numbers.skippedRowCount());
    for (int i = 0; i < push.rows().size(); i++) {
      Row row = push.rows().get(i);
      // The number is the session's, not the queue's: the queue's schema does not hold it.
      Row data =
          row.has(ProducerPush.SEQUENCE_NUMBER) ? row.without(ProducerPush.SEQUENCE_NUMBER) : row;
      if (i < numbers.skippedRowCount()) {
        // The server parses every row against the queue's schema, skipped ones too.
        queue.schema().normalize(session.queue(), data, true);
      } else {
        fresh.add(data);
      }
    }
    ProducerTableFormat.State next =
        new ProducerTableFormat.State(
            stored.epoch(),
            Math.max(sessionNumber, numbers.lastSequenceNumber()),
            push.userMeta().isPresent() ? push.userMeta() : stored.userMeta(),
            stored.systemMeta());
    Row sessionRow = next.row(cluster.name(), session);
    // Both validate before buffering; the session row matches the producer schema by construction.
    transaction.bufferInserts(session.queue(), fresh);
    transaction.bufferInserts(session.producer(), List.of(sessionRow));
    transaction.rememberProducerSequenceNumber(session, next.sequenceNumber());
    return new PushResult(numbers.lastSequenceNumber(), numbers.skippedRowCount());
  }

  /**
   * An older epoch is a zombie writer (3102), a newer one was never handed out (3101), worded as
   * {@code TTransaction::DoPushQueueProducer} words them ({@code
   * yt/yt/ytlib/api/native/transaction.cpp}).
   */
  private static void checkEpoch(long epoch, long stored) {
    if (epoch < stored) {
      throw new YtException(
          QueueProducerErrors.ZOMBIE_EPOCH,
          "Received session epoch "
              + epoch
              + " is less than the actual "
              + stored
              + " epoch, probably it is a zombie");
    }
    if (epoch > stored) {
      throw new YtException(
          QueueProducerErrors.INVALID_EPOCH,
          "Received epoch " + epoch + " is greater than the actual " + stored + " epoch");
    }
  }

  /** No session row: code 1, as {@code TTransaction::DoPushQueueProducer} answers it. */
  private static YtException missing(ProducerSessionId session) {
    return new YtException(1, "Unknown queue producer session \"" + session.sessionId() + "\"");
  }

  static Optional<Row> sessionRow(ClusterState cluster, ProducerSessionId session, long timestamp) {
    return cluster
        .producerTable(session.producer())
        .readAt(ProducerTableFormat.key(cluster.name(), session), timestamp);
  }
}
