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
 * <p>Every call acts as one user, and its permissions are checked before anything else, as the
 * native client's push and session commands check them ({@code
 * yt/yt/ytlib/api/native/transaction.cpp}, {@code TTransaction::DoPushQueueProducer}; {@code
 * yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp}, {@code DoCreateQueueProducerSession},
 * {@code DoRemoveQueueProducerSession}): a push needs {@code write} on the producer, then {@code
 * write} on the queue, then {@code read} on the producer for its lookup of the session row; a
 * session creation {@code write} then {@code read} on the producer; a removal {@code write} on the
 * producer. So a denied push fails at the push, also inside a given transaction (which stays open),
 * and is never a failed commit. The commit still checks {@code write} on every table it modifies
 * ({@code TTableCommitSession::CheckPermissions}), which can fail only if an ACL changed in
 * between.
 *
 * <p>A session creation takes a mutation id ({@code TMutatingOptions}): a creation whose id equals
 * the one stored in the session's {@code system_meta} neither bumps the epoch nor fails, so a
 * client that lost the answer repeats it at no cost; every creation stores its id there ({@code
 * yt/yt/ytlib/queue_client/config.cpp}, {@code {mutation_id=...}}). The session's queue is never
 * resolved: it is only part of the session's key.
 */
final class InMemoryQueueProducers implements QueueProducers {

  private final ClusterState cluster;
  private final String user;

  InMemoryQueueProducers(ClusterState cluster, String user) {
    this.cluster = cluster;
    this.user = user;
  }

  /** Checks {@code permission} on {@code path} for this user now, outside any commit. */
  private void checkNow(YPath path, String permission) {
    cluster.accessControl().check(cluster.tree(), user, path, permission, Optional.empty());
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
    return create(session, userMeta, Optional.empty());
  }

  /**
   * As {@link #createSession(ProducerSessionId, Object)} with the request's {@code mutation_id}
   * ({@code mutationId}, a GUID in its canonical form): when the session's stored {@code
   * system_meta} holds the same id the epoch stays; without one the creation takes a fresh id, as
   * {@code TMutatingOptions::GetOrGenerateMutationId} ({@code yt/yt/client/api/client.cpp}) does.
   */
  ProducerSession create(
      ProducerSessionId session, Optional<Object> userMeta, Optional<String> mutationId) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PRODUCER_SESSION,
              () -> {
                cluster.producerTable(session.producer());
                checkNow(session.producer(), "write");
                checkNow(session.producer(), "read");
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                // Without one, a fresh id: the call's own transaction id, GUID-shaped and unique,
                // so runs stay deterministic.
                String id = mutationId.orElseGet(() -> transaction.id().value());
                Object systemMeta = ProducerTableFormat.systemMeta(id);
                ProducerTableFormat.State next =
                    ProducerPushes.sessionRow(cluster, session, transaction.startTimestamp())
                        .map(ProducerTableFormat.State::of)
                        .map(
                            s ->
                                new ProducerTableFormat.State(
                                    id.equals(s.mutationId().orElse(null))
                                        ? s.epoch()
                                        : s.epoch() + 1,
                                    s.sequenceNumber(),
                                    userMeta.isPresent() ? userMeta : s.userMeta(),
                                    systemMeta))
                        .orElseGet(
                            () -> new ProducerTableFormat.State(0, -1, userMeta, systemMeta));
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
                checkNow(session.producer(), "write");
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                transaction.bufferDeletes(
                    session.producer(),
                    List.of(ProducerTableFormat.keyRow(cluster.name(), session)));
                writeCheckedAtCommit(transaction, session.producer());
                transaction.commitNow();
              });
    }
  }

  /**
   * {@code write} on the producer, then on the queue, then {@code read} on the producer (the lookup
   * of the session row), before anything else ({@code TTransaction::DoPushQueueProducer}).
   */
  private void checkPush(ProducerPush push) {
    cluster.producerTable(push.session().producer());
    checkNow(push.session().producer(), "write");
    checkNow(push.session().queue(), "write");
    checkNow(push.session().producer(), "read");
  }

  @Override
  public PushResult push(ProducerPush push) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PRODUCER_PUSH,
              () -> {
                checkPush(push);
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
                checkPush(push);
                PushResult result = ProducerPushes.buffer(cluster, open, push);
                writeCheckedAtCommit(open, push.session().queue());
                writeCheckedAtCommit(open, push.session().producer());
                open.touch();
                return result;
              });
    }
  }
}
