package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.inmemory.AccessDeniedException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TransactionId;
import io.ytstream.types.v3.YtType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The queue producer commands ({@code yt/yt/client/driver/queue_commands.cpp}): {@code
 * create_queue_producer_session}, {@code remove_queue_producer_session} and {@code
 * push_queue_producer}, over the in-memory cluster's {@code QueueProducers} port, which holds the
 * server's semantics (epochs, sequence numbers, skipped rows, codes 3101 to 3103), acting as the
 * request's user. Permissions are checked before anything else ({@code
 * yt/yt/ytlib/api/native/transaction.cpp}, {@code TTransaction::DoPushQueueProducer}: {@code write}
 * on the producer, {@code write} on the queue, {@code read} on the producer for the session's
 * lookup; {@code client_dynamic_tables_impl.cpp}, {@code DoCreateQueueProducerSession}: {@code
 * write} then {@code read} on the producer; {@code DoRemoveQueueProducerSession}: {@code write}),
 * so a denial is the command's own 901, inside a {@code transaction_id} too. Only a check that
 * fails at a commit (an ACL changed between the two) is answered as a failed commit: a generic
 * error "Error committing transaction ..." around the 901.
 */
final class QueueProducerCommands {

  private final EmulatorState state;

  QueueProducerCommands(EmulatorState state) {
    this.state = state;
  }

  private InMemoryCluster cluster() {
    return state.cluster();
  }

  private static QueueProducers producersOf(InMemoryCluster cluster, CommandRequest request) {
    return cluster.asUser(request.user()).queueProducers();
  }

  /** Runs a command that commits its own transaction, answering a denied check as its commit. */
  private static <T> T committingItself(Supplier<T> command) {
    try {
      return command.get();
    } catch (AccessDeniedException e) {
      if (e.transaction().isEmpty()) {
        throw e;
      }
      String transaction = e.transaction().map(t -> " " + t.value()).orElse("");
      throw CommandError.wrap(
          "Error committing transaction" + transaction, EmulatorState.toCommandError(e));
    }
  }

  private static ProducerSessionId session(CommandRequest request) {
    return new ProducerSessionId(
        request.path("producer_path"), request.path("queue_path"), request.string("session_id"));
  }

  /** {@code user_meta} is any YSON node; the answer gives it back as the session stores it. */
  private static Optional<Object> userMeta(CommandRequest request) {
    return request.optional("user_meta").map(n -> new TypedJson(false, false).toYson(n));
  }

  /**
   * {@code {epoch, sequence_number, user_meta}}, as {@code TCreateQueueProducerSessionCommand}. The
   * queue is never resolved ({@code DoCreateQueueProducerSession} uses its path only in the
   * session's key), so a session for a queue that does not exist is created. {@code mutation_id}
   * (parsed as a GUID, the response keeper's check) goes to the session's {@code system_meta}; a
   * repeat with the id stored there keeps the epoch.
   */
  Object createQueueProducerSession(CommandRequest request) {
    ProducerSessionId session = session(request);
    state.requireMounted(session.producer());
    Optional<Object> userMeta = userMeta(request);
    Optional<String> mutationId =
        request.optional("mutation_id").map(n -> MutationGuid.parse(n.asText()).canonical());
    InMemoryCluster asUser = cluster().asUser(request.user());
    ProducerSession created =
        committingItself(() -> asUser.createProducerSession(session, userMeta, mutationId));
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("epoch", created.epoch());
    out.put("sequence_number", created.sequenceNumber());
    out.set("user_meta", new TypedJson(false, false).ysonToJson(created.userMeta().orElse(null)));
    return out;
  }

  Object removeQueueProducerSession(CommandRequest request) {
    ProducerSessionId session = session(request);
    state.requireMounted(session.producer());
    committingItself(
        () -> {
          producersOf(cluster(), request).removeSession(session);
          return null;
        });
    return JsonNodeFactory.instance.objectNode();
  }

  /**
   * Rows in the input format, read against the queue's schema plus {@code $tablet_index} and {@code
   * $sequence_number} ({@code TPushQueueProducerCommand} parses them with the queue's {@code
   * WriteViaQueueProducer} schema); inside {@code transaction_id} or in a transaction of its own,
   * committed before the answer ({@code ShouldCommitTransaction}).
   */
  Object pushQueueProducer(CommandRequest request) {
    ProducerSessionId session = session(request);
    state.requireMounted(session.queue());
    state.requireMounted(session.producer());
    TableDescription queue = cluster().tableMetadata().describe(session.queue());
    if (queue.sorted()) {
      throw CommandError.badRequest("Path " + session.queue() + " does not point to a valid queue");
    }
    Map<String, YtType> types = new LinkedHashMap<>();
    queue.columns().forEach(c -> types.put(c.name(), c.typeV3()));
    List<Row> rows = request.inputFormat().readRows(request.body(), types);
    OptionalLong first =
        request.optionalLong("sequence_number").map(OptionalLong::of).orElse(OptionalLong.empty());
    ProducerPush push =
        new ProducerPush(session, request.longValue("epoch"), first, rows, userMeta(request));
    Optional<String> transaction =
        request.optional("transaction_id").map(JsonNode::asText).filter(s -> !s.isEmpty());
    PushResult result;
    if (transaction.isPresent()) {
      // The sticky pool checks the proxy; the cluster's transaction takes the buffered push.
      TransactionId id = state.pool().get(transaction.get(), request.proxyIndex()).id();
      // A denied check fails that transaction's commit, not this push.
      result = producersOf(cluster(), request).push(push, id);
    } else {
      result = committingItself(() -> producersOf(cluster(), request).push(push));
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("last_sequence_number", result.lastSequenceNumber());
    out.put("skipped_row_count", result.skippedRowCount());
    return out;
  }
}
