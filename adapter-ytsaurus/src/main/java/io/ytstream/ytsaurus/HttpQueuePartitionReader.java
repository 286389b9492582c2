package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code pull_queue_consumer} with an explicit offset, looped over short reads (a short read is not
 * the end of a partition, reference 3.1) until {@code maxRows} rows or an empty answer.
 *
 * <p>Every returned {@code $row_index} is checked: the first may be above the requested offset
 * (those rows were trimmed; the caller sees it and reports data loss), but after that they must be
 * contiguous. When a later pull does not continue exactly where the previous one stopped (rows were
 * trimmed between two pulls), the loop stops and returns the contiguous prefix, so the caller's
 * next pull sees the gap at its start instead of rows silently missing in the middle.
 */
final class HttpQueuePartitionReader implements QueuePartitionReader {

  static final String TABLET_INDEX = "$tablet_index";
  static final String ROW_INDEX = "$row_index";
  static final String TIMESTAMP = "$timestamp";
  static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";

  private final YtsaurusCluster cluster;

  HttpQueuePartitionReader(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    if (offset < 0) {
      throw new IllegalArgumentException(
          "cannot read " + partition + " at a negative offset " + offset);
    }
    if (maxRows <= 0) {
      throw new IllegalArgumentException("maxRows must be > 0, got " + maxRows);
    }
    cluster.checkLocal(consumer.cluster(), consumer.toString());
    YtHttpClient client = cluster.client();
    URI proxy = cluster.heavyProxies().forHeavyCommand();
    // A queue on another cluster is read without its schema: columns arrive as plain YSON values.
    Map<String, YtType> types =
        partition.queue().cluster().equals(cluster.name())
            ? cluster.columnTypes(partition.queue().path())
            : Map.of();
    List<QueueRow> result = new ArrayList<>();
    long next = offset;
    while (result.size() < maxRows) {
      ObjectNode params = client.params();
      params.put("consumer_path", consumer.path().value());
      params.put(
          "queue_path",
          Paths.queuePath(cluster.name(), partition.queue().cluster(), partition.queue().path()));
      params.put("partition_index", partition.index());
      params.put("offset", next);
      params.put("max_row_count", maxRows - result.size());
      byte[] body = client.send(proxy, Command.PULL_QUEUE_CONSUMER, params, null, Repeat.READ);
      List<Map<String, Object>> rows = cluster.rows().decode(body, types);
      if (rows.isEmpty()) {
        break;
      }
      boolean gap = false;
      for (Map<String, Object> raw : rows) {
        QueueRow row = toQueueRow(partition, raw);
        if (result.isEmpty()) {
          if (row.rowIndex() < offset) {
            throw new YtTransportException(
                "pull_queue_consumer on "
                    + partition
                    + " at offset "
                    + offset
                    + " returned row "
                    + row.rowIndex()
                    + ", below the offset",
                null);
          }
        } else if (row.rowIndex() != next) {
          gap = true;
          break;
        }
        result.add(row);
        next = row.rowIndex() + 1;
        if (result.size() == maxRows) {
          break;
        }
      }
      if (gap) {
        break;
      }
    }
    return result;
  }

  private static QueueRow toQueueRow(PartitionId partition, Map<String, Object> raw) {
    Object tablet = raw.get(TABLET_INDEX);
    Object rowIndex = raw.get(ROW_INDEX);
    if (!(rowIndex instanceof Long index)) {
      throw new YtTransportException(
          "pull_queue_consumer returned a row without $row_index for " + partition, null);
    }
    if (tablet instanceof Long t && t != partition.index()) {
      throw new YtTransportException(
          "pull_queue_consumer for " + partition + " returned a row of tablet " + t, null);
    }
    Map<String, Object> data = new LinkedHashMap<>();
    raw.forEach(
        (column, value) -> {
          if (!column.startsWith("$")) {
            data.put(column, value);
          }
        });
    return new QueueRow(
        partition.index(),
        index,
        Row.of(data),
        optionalLong(raw.get(TIMESTAMP)),
        optionalLong(raw.get(CUMULATIVE_DATA_WEIGHT)));
  }

  private static OptionalLong optionalLong(Object value) {
    return value instanceof Long l ? OptionalLong.of(l) : OptionalLong.empty();
  }
}
