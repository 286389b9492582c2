package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueMetadata;
import java.util.ArrayList;
import java.util.List;

/** {@code get <queue>/@tablet_count}, then {@code get_tablet_infos} for every tablet. */
final class HttpQueueMetadata implements QueueMetadata {

  private final YtsaurusCluster cluster;

  HttpQueueMetadata(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<PartitionBounds> partitions(QueueId queue) {
    cluster.checkLocal(queue.cluster(), queue.toString());
    YtHttpClient client = cluster.client();
    ObjectNode get = client.params();
    get.put("path", queue.path().value() + "/@tablet_count");
    int tabletCount =
        client
            .structured(client.primaryProxy(), Command.GET, get, Repeat.READ)
            .path("value")
            .asInt();
    List<PartitionBounds> result = new ArrayList<>(tabletCount);
    if (tabletCount == 0) {
      return result;
    }
    ObjectNode infos = client.params();
    infos.put("path", queue.path().value());
    ArrayNode indexes = infos.putArray("tablet_indexes");
    for (int i = 0; i < tabletCount; i++) {
      indexes.add(i);
    }
    JsonNode tablets =
        client
            .structured(client.primaryProxy(), Command.GET_TABLET_INFOS, infos, Repeat.READ)
            .path("tablets");
    if (!tablets.isArray() || tablets.size() != tabletCount) {
      throw new YtTransportException(
          "get_tablet_infos returned "
              + tablets.size()
              + " tablets for "
              + tabletCount
              + " requested indexes of "
              + queue,
          null);
    }
    for (int i = 0; i < tabletCount; i++) {
      JsonNode tablet = tablets.get(i);
      result.add(
          new PartitionBounds(
              i,
              tablet.path("trimmed_row_count").asLong(),
              tablet.path("total_row_count").asLong()));
    }
    return result;
  }
}
