package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import java.util.Objects;

/**
 * A queue producer session: the row {@code (queue_cluster, queue_path, session_id)} of the producer
 * table {@code producer} that numbers one writer's pushes into {@code queue}. The queue is on the
 * producer's cluster.
 */
public record ProducerSessionId(YPath producer, YPath queue, String sessionId) {

  public ProducerSessionId {
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(sessionId, "sessionId");
    if (sessionId.isEmpty()) {
      throw new IllegalArgumentException(
          "a queue producer session id must not be empty (producer "
              + producer
              + ", queue "
              + queue
              + ")");
    }
  }

  @Override
  public String toString() {
    return "session " + sessionId + " of producer " + producer + " for queue " + queue;
  }
}
