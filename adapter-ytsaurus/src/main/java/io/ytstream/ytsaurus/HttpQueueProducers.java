package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.TransactionId;
import java.util.Optional;

/**
 * {@code create_queue_producer_session}, {@code remove_queue_producer_session} and {@code
 * push_queue_producer} ({@code yt/yt/client/driver/queue_commands.cpp}). A push carries its rows in
 * the configured row format, {@code $sequence_number} and {@code $tablet_index} as plain columns.
 *
 * <p>Repeats after a lost answer: a push without a transaction is safe to send again, since the
 * server skips the rows the session already holds (the repeat answers them as skipped). A session
 * creation carries a {@code mutation_id} (a GUID, {@code retry=false} first, {@code retry=true} on
 * a repeat): the server keeps the id in the session's {@code system_meta} and a creation with the
 * stored id does not bump the epoch ({@code yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp},
 * {@code DoCreateQueueProducerSession}), so a repeat after a lost answer costs no epoch and is
 * never mistaken for another writer's takeover. A removal sent twice removes nothing more. A push
 * inside a transaction is sent once.
 *
 * <p>Permissions, which the server checks before anything else ({@code
 * yt/yt/ytlib/api/native/transaction.cpp}, {@code TTransaction::DoPushQueueProducer}): a push needs
 * {@code write} on the producer, {@code write} on the queue and {@code read} on the producer (it
 * looks the session row up); a session creation {@code write} and {@code read} on the producer; a
 * removal {@code write} on it. A refusal is reported with the user, the permission, the path and
 * the entry to grant, never the token.
 */
final class HttpQueueProducers implements QueueProducers {

  private final YtsaurusCluster cluster;

  HttpQueueProducers(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  private ObjectNode params(ProducerSessionId session) {
    ObjectNode params = cluster.client().params();
    params.put("producer_path", session.producer().value());
    params.put("queue_path", session.queue().value());
    params.put("session_id", session.sessionId());
    return params;
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session) {
    return create(session, params(session));
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
    ObjectNode params = params(session);
    params.set("user_meta", UserMetaJson.toJson(userMeta));
    return create(session, params);
  }

  /** A denied check named with the path it concerns; other errors unchanged. */
  private static YtHttpException explained(
      YtHttpException e, String command, ProducerSessionId session, boolean push) {
    if (e.accessDenial().isEmpty()) {
      return e;
    }
    AccessDenial denial = e.accessDenial().get();
    String producer = session.producer().value();
    String where;
    if (!push || denial.permission().equals("read")) {
      // Only the producer is checked for read, and the only node a session command checks.
      where =
          "on the producer "
              + producer
              + (push
                  ? " (a push reads the session row there)"
                  : " (a session change needs write on it, a creation also read)");
    } else {
      // write: the producer is checked first, then the queue; the 901 does not say which.
      where =
          "on the producer "
              + producer
              + " or on the queue "
              + session.queue().value()
              + " (a push needs read and write on the producer and write on the queue)";
    }
    return e.withMessage(denial.describe(command, where, e.serverMessage()));
  }

  private ProducerSession create(ProducerSessionId session, ObjectNode params) {
    YtHttpClient client = cluster.client();
    JsonNode answer;
    try {
      answer =
          client.structured(
              client.primaryProxy(),
              Command.CREATE_QUEUE_PRODUCER_SESSION,
              params,
              Repeat.MUTATION_ID);
    } catch (YtHttpException e) {
      throw explained(e, "create_queue_producer_session", session, false);
    }
    return new ProducerSession(
        number(answer, "epoch"),
        number(answer, "sequence_number"),
        Optional.ofNullable(UserMetaJson.fromJson(answer.get("user_meta"))));
  }

  @Override
  public void removeSession(ProducerSessionId session) {
    YtHttpClient client = cluster.client();
    try {
      client.structured(
          client.primaryProxy(),
          Command.REMOVE_QUEUE_PRODUCER_SESSION,
          params(session),
          Repeat.IDEMPOTENT);
    } catch (YtHttpException e) {
      throw explained(e, "remove_queue_producer_session", session, false);
    }
  }

  @Override
  public PushResult push(ProducerPush push) {
    return send(push, params(push), cluster.heavyProxies().forHeavyCommand(), Repeat.IDEMPOTENT);
  }

  @Override
  public PushResult push(ProducerPush push, TransactionId transaction) {
    StickyTransactionId sticky =
        StickyTransactionId.parse(transaction, cluster.client().primaryProxy());
    ObjectNode params = params(push);
    params.put("transaction_id", sticky.transactionId());
    return send(push, params, cluster.heavyProxies().transaction(sticky.proxy()), Repeat.ONCE);
  }

  private ObjectNode params(ProducerPush push) {
    ObjectNode params = params(push.session());
    params.put("epoch", push.epoch());
    push.firstSequenceNumber().ifPresent(n -> params.put("sequence_number", n));
    push.userMeta().ifPresent(m -> params.set("user_meta", UserMetaJson.toJson(m)));
    return params;
  }

  private PushResult send(ProducerPush push, ObjectNode params, ProxyTarget proxy, Repeat repeat) {
    byte[] rows = cluster.rows().encode(push.rows(), cluster.columnTypes(push.session().queue()));
    JsonNode answer;
    try {
      answer =
          cluster.client().structured(proxy, Command.PUSH_QUEUE_PRODUCER, params, rows, repeat);
    } catch (YtHttpException e) {
      throw explained(e, "push_queue_producer", push.session(), true);
    }
    return new PushResult(
        number(answer, "last_sequence_number"), number(answer, "skipped_row_count"));
  }

  private static long number(JsonNode answer, String field) {
    JsonNode value = answer.get(field);
    if (value == null || !value.isIntegralNumber()) {
      throw new YtTransportException(
          "a queue producer answer lacks the integer " + field + ": " + answer, null);
    }
    return value.asLong();
  }
}
