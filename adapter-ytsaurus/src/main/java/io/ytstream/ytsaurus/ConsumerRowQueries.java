package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Consumer rows over HTTP: offsets read with {@code select_rows} on the consumer table (reference
 * 6), advanced with {@code advance_queue_consumer} and {@code old_offset} ({@code
 * yt/yt/client/driver/queue_commands.cpp}), either on their own or inside a tablet transaction.
 * {@code OFFSET} is a keyword of the query language, so the column is written {@code [offset]}, as
 * the server's own consumer client does ({@code yt/yt/client/queue_client/consumer_client.cpp}).
 */
final class ConsumerRowQueries {

  private final YtsaurusCluster cluster;

  ConsumerRowQueries(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  StreamOffsets read(ConsumerId consumer, QueueId queue, ProxyTarget proxy, String transactionId) {
    cluster.checkLocal(consumer.cluster(), consumer.toString());
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put(
        "query",
        "partition_index, [offset] from "
            + Paths.inQuery(consumer.path())
            + " where queue_cluster = "
            + Paths.literal(queue.cluster())
            + " and queue_path = "
            + Paths.literal(queue.path().value()));
    if (transactionId != null) {
      params.put("transaction_id", transactionId);
    }
    byte[] body = client.send(proxy, Command.SELECT_ROWS, params, null, Repeat.READ);
    Map<Integer, Long> offsets = new TreeMap<>();
    for (Map<String, Object> row : cluster.rows().decode(body, Map.of())) {
      // Read without a schema: partition_index is a uint64 (YsonUint64 in YSON), offset an int64.
      OptionalLong partition = UntypedValues.integer(row.get("partition_index"));
      OptionalLong offset = UntypedValues.integer(row.get("offset"));
      if (partition.isEmpty()) {
        throw new YtTransportException(
            "consumer " + consumer + " has a row without partition_index: " + row, null);
      }
      // A null offset means 0 (yt/yt/client/queue_client/consumer_client.cpp).
      offsets.put(Math.toIntExact(partition.getAsLong()), offset.orElse(0L));
    }
    return StreamOffsets.ofQueue(queue, offsets);
  }

  void advance(
      ConsumerId consumer,
      PartitionId partition,
      OptionalLong oldOffset,
      long newOffset,
      ProxyTarget proxy,
      String transactionId) {
    cluster.checkLocal(consumer.cluster(), consumer.toString());
    if (newOffset < 0) {
      throw new IllegalArgumentException(
          "Queue consumer offset " + newOffset + " cannot be negative");
    }
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("consumer_path", consumer.path().value());
    params.put(
        "queue_path",
        Paths.queuePath(cluster.name(), partition.queue().cluster(), partition.queue().path()));
    params.put("partition_index", partition.index());
    if (oldOffset.isPresent()) {
      params.put("old_offset", oldOffset.getAsLong());
    }
    params.put("new_offset", newOffset);
    if (transactionId != null) {
      params.put("transaction_id", transactionId);
    }
    client.structuredRenamed(
        proxy,
        Command.ADVANCE_QUEUE_CONSUMER,
        Command.ADVANCE_CONSUMER,
        params,
        transactionId == null ? Repeat.COMMIT : Repeat.ONCE);
  }
}
