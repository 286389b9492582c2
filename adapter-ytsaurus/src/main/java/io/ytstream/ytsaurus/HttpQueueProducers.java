package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.TransactionId;
import java.net.URI;
import java.util.Optional;

/**
 * {@code create_queue_producer_session}, {@code remove_queue_producer_session} and {@code
 * push_queue_producer} ({@code yt/yt/client/driver/queue_commands.cpp}). A push carries its rows in
 * the configured row format, {@code $sequence_number} and {@code $tablet_index} as plain columns.
 *
 * <p>Repeats after a lost answer: a push without a transaction is safe to send again, since the
 * server skips the rows the session already holds (the repeat answers them as skipped); a session
 * creation sent twice bumps the epoch twice, which fences no one but older writers; a removal sent
 * twice removes nothing more. A push inside a transaction is sent once: a second copy in the same
 * transaction would be buffered again, as the session is read at the transaction's start.
 *
 * <p>A refused permission check (the server checks {@code write} on the tables a command's
 * transaction modifies: the queue and the producer for a push, the producer for a session change)
 * is reported with the user, the permission and the paths involved.
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

  /** A denied check named with the paths of {@code session}; other errors unchanged. */
  private static YtHttpException explained(
      YtHttpException e, String command, ProducerSessionId session, boolean push) {
    if (e.accessDenial().isEmpty()) {
      return e;
    }
    String where =
        push
            ? "that a push needs on both the queue "
                + session.queue().value()
                + " and the producer "
                + session.producer().value()
            : "that a session change needs on the producer " + session.producer().value();
    return e.withMessage(e.accessDenial().get().describe(command, where, e.serverMessage()));
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
              Repeat.IDEMPOTENT);
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
    return send(push, params, sticky.proxy(), Repeat.ONCE);
  }

  private ObjectNode params(ProducerPush push) {
    ObjectNode params = params(push.session());
    params.put("epoch", push.epoch());
    push.firstSequenceNumber().ifPresent(n -> params.put("sequence_number", n));
    push.userMeta().ifPresent(m -> params.set("user_meta", UserMetaJson.toJson(m)));
    return params;
  }

  private PushResult send(ProducerPush push, ObjectNode params, URI proxy, Repeat repeat) {
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
