package io.ytstream.inmemory;

import com.google.common.collect.ImmutableList;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.Optional;

/**
 * The queue producer table: one row per session, keyed by {@code (queue_cluster, queue_path,
 * session_id)}, holding the last {@code sequence_number} written, the {@code epoch} and the
 * session's {@code user_meta} ({@code
 * yt/yt/ytlib/queue_client/records/queue_producer_session.yaml}).
 */
final class ProducerTableFormat {

  static final String QUEUE_CLUSTER = "queue_cluster";
  static final String QUEUE_PATH = "queue_path";
  static final String SESSION_ID = "session_id";
  static final String SEQUENCE_NUMBER = "sequence_number";
  static final String EPOCH = "epoch";
  static final String USER_META = "user_meta";
  static final String SYSTEM_META = "system_meta";

  static final ImmutableList<Column> SCHEMA =
      ImmutableList.of(
          new Column(QUEUE_CLUSTER, "string", true, true),
          new Column(QUEUE_PATH, "string", true, true),
          new Column(SESSION_ID, "string", true, true),
          new Column(SEQUENCE_NUMBER, "int64", false, true),
          new Column(EPOCH, "int64", false, true),
          new Column(USER_META, "any", false, false),
          new Column(SYSTEM_META, "any", false, false));

  static final StoredSchema TABLE_SCHEMA = StoredSchema.sorted(SCHEMA);

  private ProducerTableFormat() {}

  static RowKey key(String queueCluster, ProducerSessionId session) {
    return RowKey.of(queueCluster, session.queue().value(), session.sessionId());
  }

  static Row keyRow(String queueCluster, ProducerSessionId session) {
    return Row.of(
        QUEUE_CLUSTER,
        queueCluster,
        QUEUE_PATH,
        session.queue().value(),
        SESSION_ID,
        session.sessionId());
  }

  /** The {@code system_meta} a session creation writes: {@code {mutation_id=<id>}}. */
  static Object systemMeta(String mutationId) {
    return java.util.Map.of("mutation_id", mutationId);
  }

  /** A session's state as stored. */
  record State(long epoch, long sequenceNumber, Optional<Object> userMeta, Object systemMeta) {

    static State of(Row row) {
      return new State(
          (Long) row.get(EPOCH),
          (Long) row.get(SEQUENCE_NUMBER),
          Optional.ofNullable(row.get(USER_META)),
          row.get(SYSTEM_META));
    }

    /**
     * The {@code mutation_id} of the creation that wrote this row, if {@code system_meta} has one.
     */
    Optional<String> mutationId() {
      if (systemMeta instanceof java.util.Map<?, ?> map) {
        Object id = map.get("mutation_id");
        if (id instanceof String text) {
          return Optional.of(text);
        }
        if (id instanceof byte[] bytes) {
          return Optional.of(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      return Optional.empty();
    }

    Row row(String queueCluster, ProducerSessionId session) {
      return Row.of(
          QUEUE_CLUSTER,
          queueCluster,
          QUEUE_PATH,
          session.queue().value(),
          SESSION_ID,
          session.sessionId(),
          SEQUENCE_NUMBER,
          sequenceNumber,
          EPOCH,
          epoch,
          USER_META,
          userMeta.orElse(null),
          SYSTEM_META,
          systemMeta);
    }
  }
}
