package io.ytstream.ports;

import java.util.Optional;

/**
 * What {@code create_queue_producer_session} answers: the session's epoch (the writer's fencing
 * token, 0 for a new session and one more at every later creation), the sequence number of the last
 * row written (-1 before the first) and the session's {@code user_meta}, a value of the YSON model
 * of {@link io.ytstream.types.yson.Yson} (empty when the session has none).
 */
public record ProducerSession(long epoch, long sequenceNumber, Optional<Object> userMeta) {

  public ProducerSession {
    userMeta = userMeta == null ? Optional.empty() : userMeta;
  }
}
