package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One {@code pull_queue_consumer} with an explicit offset per call. The answer may be short (a
 * tablet node stops at {@code max_row_count}, {@code max_data_weight} or the end of one store,
 * reference 3.1); that is passed on as it is, since the port allows short reads and its callers
 * loop until their range is read (in Spark, {@code YtPartitionReader}). Looping here as well would
 * only hide the short reads the contract suite checks callers against.
 *
 * <p>Every returned {@code $row_index} is checked: the first may be above the requested offset
 * (those rows were trimmed; the caller sees it and reports data loss), but after that they must be
 * contiguous. Should an answer skip a row, only the contiguous prefix is returned, so the caller's
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
    ObjectNode params = client.params();
    params.put("consumer_path", consumer.path().value());
    params.put(
        "queue_path",
        Paths.queuePath(cluster.name(), partition.queue().cluster(), partition.queue().path()));
    params.put("partition_index", partition.index());
    params.put("offset", offset);
    params.put("max_row_count", maxRows);
    byte[] body =
        client.sendRenamed(
            proxy, Command.PULL_QUEUE_CONSUMER, Command.PULL_CONSUMER, params, null, Repeat.READ);
    QueueRowCollector rows = new QueueRowCollector(partition, offset, maxRows);
    cluster.rows().decode(body, types, rows);
    return rows.rows();
  }

  /**
   * Builds each {@link QueueRow} as its columns are decoded: system columns go to the row's
   * position and metadata, the others to its data, so no intermediate map of the whole row is made.
   */
  private static final class QueueRowCollector implements RowVisitor {

    private final PartitionId partition;
    private final long offset;
    private final int maxRows;
    private final List<QueueRow> rows = new ArrayList<>();
    // The data columns of the row being decoded, and the layout of the row before: rows of one
    // answer share a layout, so each row adopts its value array without a map or a copy.
    private final List<String> names = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();
    private RowLayout layout;
    private boolean sameLayout = true;
    private Object tablet;
    private Object rowIndex;
    private Object timestamp;
    private Object cumulativeDataWeight;

    QueueRowCollector(PartitionId partition, long offset, int maxRows) {
      this.partition = partition;
      this.offset = offset;
      this.maxRows = maxRows;
    }

    @Override
    public void column(String name, Object value) {
      if (!name.startsWith("$")) {
        int position = values.size();
        if (sameLayout
            && (layout == null
                || position >= layout.size()
                || !layout.name(position).equals(name))) {
          sameLayout = false;
        }
        names.add(name);
        values.add(value);
        return;
      }
      switch (name) {
        case TABLET_INDEX -> tablet = value;
        case ROW_INDEX -> rowIndex = value;
        case TIMESTAMP -> timestamp = value;
        case CUMULATIVE_DATA_WEIGHT -> cumulativeDataWeight = value;
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    @Override
    public boolean endRow() {
      QueueRow row = toQueueRow();
      names.clear();
      values.clear();
      sameLayout = true;
      tablet = null;
      rowIndex = null;
      timestamp = null;
      cumulativeDataWeight = null;
      if (rows.isEmpty()) {
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
      } else if (row.rowIndex() != rows.get(rows.size() - 1).rowIndex() + 1) {
        return false; // a gap: keep the contiguous prefix
      }
      rows.add(row);
      return rows.size() < maxRows;
    }

    private QueueRow toQueueRow() {
      OptionalLong index = UntypedValues.integer(rowIndex);
      if (index.isEmpty()) {
        throw new YtTransportException(
            "pull_queue_consumer returned a row without $row_index for " + partition, null);
      }
      OptionalLong t = UntypedValues.integer(tablet);
      if (t.isPresent() && t.getAsLong() != partition.index()) {
        throw new YtTransportException(
            "pull_queue_consumer for " + partition + " returned a row of tablet " + t.getAsLong(),
            null);
      }
      return new QueueRow(
          partition.index(),
          index.getAsLong(),
          data(),
          UntypedValues.integer(timestamp),
          UntypedValues.integer(cumulativeDataWeight));
    }

    private Row data() {
      if (!sameLayout || layout == null || layout.size() != values.size()) {
        if (new HashSet<>(names).size() != names.size()) {
          // A repeated column name: the map keeps the first position and the last value.
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = 0; i < names.size(); i++) {
            map.put(names.get(i), values.get(i));
          }
          return Row.of(map);
        }
        layout = RowLayout.of(names);
      }
      return Row.adopting(layout, values.toArray());
    }

    List<QueueRow> rows() {
      return rows;
    }
  }
}
