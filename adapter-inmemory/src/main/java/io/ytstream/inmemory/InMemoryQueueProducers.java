package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.TransactionId;
import java.util.List;
import java.util.Optional;

/**
 * Queue producer sessions and pushes, each session change and each push without a transaction in a
 * tablet transaction of its own. Session semantics follow the server's tests ({@code
 * yt/yt/tests/integration/queues/test_producer.py}, {@code
 * TestCreateRemoveForQueueProducerSessions}): a new session has epoch 0 and sequence number -1;
 * creating it again bumps the epoch and keeps the sequence number and, unless a new one is given,
 * the user_meta; removing it deletes the row.
 *
 * <p>Every call acts as one user: its tablet transaction needs {@code write} on each table it
 * modifies, checked at the commit ({@code yt/yt/ytlib/api/native/transaction.cpp}, {@code
 * TTableCommitSession::CheckPermissions}), so a push needs it on the queue and the producer and a
 * session change on the producer. A push inside a given transaction is refused at that
 * transaction's commit, which then writes nothing.
 */
final class InMemoryQueueProducers implements QueueProducers {

  private final ClusterState cluster;
  private final String user;

  InMemoryQueueProducers(ClusterState cluster, String user) {
    this.cluster = cluster;
    this.user = user;
  }

  /** Makes {@code transaction}'s commit check {@code write} on {@code table} for this user. */
  private void writeCheckedAtCommit(InMemoryTransaction transaction, YPath table) {
    transaction.checkAtCommit(
        () ->
            cluster
                .accessControl()
                .check(cluster.tree(), user, table, "write", Optional.of(transaction.id())));
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session) {
    return create(session, Optional.empty());
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
    return create(session, Optional.ofNullable(userMeta));
  }

  private ProducerSession create(ProducerSessionId session, Optional<Object> userMeta) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PRODUCER_SESSION,
              () -> {
                cluster.orderedTable(session.queue());
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                ProducerTableFormat.State next =
                    ProducerPushes.sessionRow(cluster, session, transaction.startTimestamp())
                        .map(ProducerTableFormat.State::of)
                        .map(
                            s ->
                                new ProducerTableFormat.State(
                                    s.epoch() + 1,
                                    s.sequenceNumber(),
                                    userMeta.isPresent() ? userMeta : s.userMeta(),
                                    s.systemMeta()))
                        .orElseGet(() -> new ProducerTableFormat.State(0, -1, userMeta, null));
                transaction.bufferInserts(
                    session.producer(), List.of(next.row(cluster.name(), session)));
                writeCheckedAtCommit(transaction, session.producer());
                transaction.commitNow();
                // What the server answers is what it stored: user_meta in its canonical form.
                ProducerTableFormat.State stored =
                    ProducerPushes.sessionRow(cluster, session, Long.MAX_VALUE)
                        .map(ProducerTableFormat.State::of)
                        .orElseThrow();
                return new ProducerSession(
                    stored.epoch(), stored.sequenceNumber(), stored.userMeta());
              });
    }
  }

  @Override
  public void removeSession(ProducerSessionId session) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(
              ClusterOperation.PRODUCER_SESSION,
              () -> {
                cluster.producerTable(session.producer());
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                transaction.bufferDeletes(
                    session.producer(),
                    List.of(ProducerTableFormat.keyRow(cluster.name(), session)));
                writeCheckedAtCommit(transaction, session.producer());
                transaction.commitNow();
              });
    }
  }

  @Override
  public PushResult push(ProducerPush push) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PRODUCER_PUSH,
              () -> {
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                PushResult result = ProducerPushes.buffer(cluster, transaction, push);
                writeCheckedAtCommit(transaction, push.session().queue());
                writeCheckedAtCommit(transaction, push.session().producer());
                transaction.commitNow();
                return result;
              },
              () -> {});
    }
  }

  @Override
  public PushResult push(ProducerPush push, TransactionId transaction) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.TX_PRODUCER_PUSH,
              () -> {
                InMemoryTransaction open = cluster.transactions().attach(transaction);
                PushResult result = ProducerPushes.buffer(cluster, open, push);
                writeCheckedAtCommit(open, push.session().queue());
                writeCheckedAtCommit(open, push.session().producer());
                open.touch();
                return result;
              });
    }
  }
}
